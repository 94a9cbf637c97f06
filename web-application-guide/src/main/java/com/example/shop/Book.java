package com.example.shop;

public record Book(String title, long priceCents) {}
