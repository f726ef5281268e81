package dev.ratelimit.interceptor.store;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.masterreplica.MasterReplica;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.List;

/**
 * The Lettuce client the limiter connects with, and how it connects: to one server (or the master its
 * sentinels name), to a Redis Cluster, or to a static set of master and replicas (Lettuce finds which is the
 * master). Commands go to the master: the limiter reads what it has just written. Making this opens nothing.
 */
public final class LimiterRedisClient {

    private final AbstractRedisClient client;
    private final List<RedisURI> nodes;
    private final boolean masterReplica;

    private LimiterRedisClient(AbstractRedisClient client, List<RedisURI> nodes, boolean masterReplica) {
        this.client = client;
        this.nodes = List.copyOf(nodes);
        this.masterReplica = masterReplica;
    }

    /** One server: {@code redis://}, {@code rediss://}, a socket, or the master of {@code redis-sentinel://}. */
    public static LimiterRedisClient of(RedisClient client, RedisURI server) {
        return new LimiterRedisClient(client, List.of(server), false);
    }

    /** A Redis Cluster, reached through the seed nodes the client was made with. */
    public static LimiterRedisClient of(RedisClusterClient client) {
        return new LimiterRedisClient(client, List.of(), false);
    }

    /** A static set of master and replicas. */
    public static LimiterRedisClient ofMasterReplica(RedisClient client, List<RedisURI> nodes) {
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("a master/replica set needs at least one node");
        }
        return new LimiterRedisClient(client, nodes, true);
    }

    /** The Lettuce client itself, for what needs it whole (its event loops, client tracking). */
    public AbstractRedisClient lettuce() {
        return client;
    }

    /** A new connection: waits for Redis' handshake, up to the client's timeouts. */
    <K, V> StatefulConnection<K, V> connect(RedisCodec<K, V> codec) {
        if (client instanceof RedisClusterClient cluster) {
            return cluster.connect(codec);
        }
        RedisClient redis = (RedisClient) client;
        return masterReplica ? MasterReplica.connect(redis, codec, nodes) : redis.connect(codec, nodes.get(0));
    }

    /** A new publish/subscribe connection: on a cluster or a master/replica set any node hears every message. */
    StatefulRedisPubSubConnection<String, String> connectPubSub() {
        if (client instanceof RedisClusterClient cluster) {
            return cluster.connectPubSub(StringCodec.UTF8);
        }
        return ((RedisClient) client).connectPubSub(StringCodec.UTF8, nodes.get(0));
    }

    /** The asynchronous commands of a connection this client made, whichever kind it is. */
    @SuppressWarnings("unchecked")
    static <K, V> RedisClusterAsyncCommands<K, V> async(StatefulConnection<K, V> connection) {
        return connection instanceof StatefulRedisClusterConnection<?, ?> cluster
                ? ((StatefulRedisClusterConnection<K, V>) cluster).async()
                : ((StatefulRedisConnection<K, V>) connection).async();
    }

    /** The synchronous commands of a connection this client made, whichever kind it is. */
    @SuppressWarnings("unchecked")
    static <K, V> RedisClusterCommands<K, V> sync(StatefulConnection<K, V> connection) {
        return connection instanceof StatefulRedisClusterConnection<?, ?> cluster
                ? ((StatefulRedisClusterConnection<K, V>) cluster).sync()
                : ((StatefulRedisConnection<K, V>) connection).sync();
    }
}
