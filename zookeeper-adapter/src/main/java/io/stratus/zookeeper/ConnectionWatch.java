package io.stratus.zookeeper;

import io.stratus.cloudapi.ServiceUnavailableException;
import io.stratus.zookeeper.ZooKeeperCloud.Connection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;

/**
 * What the adapter knows about its ZooKeeper connection, fed by Curator's connection-state events.
 *
 * <p>Why an epoch: while the connection is SUSPENDED (or LOST) a client cannot renew, release or
 * even check its locks, and Curator's advice is to treat them as gone. Every such event increments
 * {@link #epoch()}; a lock granted in an earlier epoch is gone for this client (its release answers
 * false), and a request that started in an earlier epoch cannot report a grant (see {@code
 * ZkLocks}). The epoch is incremented before the new state is published, so a request that sees
 * the old epoch after the event also sees the state that caused it.
 *
 * <p>Why requests fail fast while not connected: a request queued behind a broken connection would
 * only fail later with ConnectionLoss; refusing it at once ({@link ServiceUnavailableException},
 * no effect) lets the caller back off instead.
 *
 * <p>Thread-safe; listeners run on Curator's event thread, in registration order.
 */
final class ConnectionWatch implements ConnectionStateListener {
  private final AtomicLong epoch = new AtomicLong();
  private final List<Consumer<Connection>> listeners = new CopyOnWriteArrayList<>();
  private final CompletableFuture<Void> connected = new CompletableFuture<>();

  /** SUSPENDED until Curator reports the first connection. */
  private volatile Connection state = Connection.SUSPENDED;

  @Override
  public void stateChanged(CuratorFramework client, ConnectionState newState) {
    publish(
        switch (newState) {
          case CONNECTED, RECONNECTED -> Connection.CONNECTED;
          case LOST -> Connection.LOST;
          default -> Connection.SUSPENDED; // and READ_ONLY, which this adapter never asks for
        });
  }

  /** Records a new state (also {@link Connection#CLOSED} on close) and tells the listeners. */
  void publish(Connection next) {
    if (state == Connection.CLOSED) {
      return;
    }
    if (next != Connection.CONNECTED) {
      epoch.incrementAndGet();
    }
    state = next;
    if (next == Connection.CONNECTED) {
      connected.complete(null);
    }
    for (Consumer<Connection> l : listeners) {
      try {
        l.accept(next);
      } catch (RuntimeException e) {
        // A failing listener must not keep the others, or Curator's thread, from their work.
      }
    }
  }

  /** Completes when the connection is first made. */
  CompletableFuture<Void> connected() {
    return connected;
  }

  Connection state() {
    return state;
  }

  /** Incremented on every SUSPENDED, LOST or CLOSED. */
  long epoch() {
    return epoch.get();
  }

  void addListener(Consumer<Connection> listener) {
    listeners.add(listener);
  }

  void removeListener(Consumer<Connection> listener) {
    listeners.remove(listener);
  }

  /** @throws ServiceUnavailableException unless connected */
  void checkUsable() {
    Connection s = state;
    if (s != Connection.CONNECTED) {
      throw new ServiceUnavailableException("the ZooKeeper connection is " + s);
    }
  }
}
