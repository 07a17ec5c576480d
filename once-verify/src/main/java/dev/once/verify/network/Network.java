package dev.once.verify.network;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The network between clients (shops) and their dependencies (PostgreSQL, the broker, the
 * provider): one {@link FaultProxy} per client and dependency, so that a fault can cut one client
 * off from one dependency while every other client still reaches it (a partition), or hit every
 * client of a dependency at once. Thread-safe.
 */
public final class Network implements AutoCloseable {
  private final Map<String, FaultProxy> proxies = new ConcurrentHashMap<>();

  /**
   * The proxy through which {@code client} reaches {@code dependency} at {@code target}: started on
   * first use, the same one afterwards (its target must then be the same).
   */
  public FaultProxy route(String client, String dependency, InetSocketAddress target)
      throws IOException {
    String key = key(client, dependency);
    FaultProxy proxy = proxies.get(key);
    if (proxy == null) {
      FaultProxy started = FaultProxy.start(key, target);
      proxy = proxies.putIfAbsent(key, started);
      if (proxy == null) {
        return started;
      }
      started.close();
    }
    return proxy;
  }

  /** The proxy of {@code client} to {@code dependency}. */
  public FaultProxy proxy(String client, String dependency) {
    FaultProxy proxy = proxies.get(key(client, dependency));
    if (proxy == null) {
      throw new IllegalArgumentException(
          "no route from " + client + " to " + dependency + "; routes: " + proxies.keySet());
    }
    return proxy;
  }

  /** {@code client} no longer reaches {@code dependency}; every other route is as it was. */
  public void partition(String client, String dependency) {
    proxy(client, dependency).blackhole();
  }

  /** Every route a plain proxy again. */
  public void heal() {
    proxies.values().forEach(FaultProxy::heal);
  }

  /** Every route, in no particular order. */
  public List<FaultProxy> routes() {
    return new ArrayList<>(proxies.values());
  }

  private static String key(String client, String dependency) {
    return client + "->" + dependency;
  }

  @Override
  public void close() {
    proxies.values().forEach(FaultProxy::close);
    proxies.clear();
  }
}
