package io.stratus.cloudapi.decorate;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Supplier;

/** Remembers every call it sees (and, optionally, tags an order log) and proceeds. */
class RecordingInterceptor implements CallInterceptor {
  final List<Call<?>> calls = new CopyOnWriteArrayList<>();
  private final String name;
  private final List<String> order;

  RecordingInterceptor() {
    this("", new CopyOnWriteArrayList<>());
  }

  RecordingInterceptor(String name, List<String> order) {
    this.name = name;
    this.order = order;
  }

  @Override
  public <T> CompletableFuture<T> intercept(Call<T> call, Supplier<CompletableFuture<T>> proceed) {
    calls.add(call);
    order.add(name + ">");
    CompletableFuture<T> f = proceed.get();
    order.add("<" + name);
    return f;
  }
}
