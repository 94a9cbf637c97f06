package io.stratus.example.bookstore;

import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import org.springframework.stereotype.Component;

/** How pages show money, subjects, times and stock; the templates call it as {@code @fmt}. */
@Component("fmt")
public class Formats {
  private final DateTimeFormatter time;

  public Formats(Clock clock) {
    this.time =
        DateTimeFormatter.ofPattern("d MMM yyyy, HH:mm z", Locale.ENGLISH)
            .withZone(clock.getZone());
  }

  /** Cents as dollars: {@code $12.49}. */
  public String money(long cents) {
    return String.format(Locale.ROOT, "$%d.%02d", cents / 100, cents % 100);
  }

  /** {@code SCIENCE-FICTION} as {@code Science fiction}. */
  public String subject(String subject) {
    String s = subject.toLowerCase(Locale.ROOT).replace('-', ' ');
    return Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }

  /** A time in epoch milliseconds, in the clock's zone. */
  public String time(long epochMillis) {
    return time.format(Instant.ofEpochMilli(epochMillis));
  }

  /** "In stock", "Only 3 left" or "Sold out". */
  public String stock(Item item) {
    if (item.soldOut()) {
      return "Sold out";
    }
    return item.stock() <= 5 ? "Only " + item.stock() + " left" : "In stock";
  }
}
