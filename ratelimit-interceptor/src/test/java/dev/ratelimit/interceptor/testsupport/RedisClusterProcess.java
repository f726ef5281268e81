package dev.ratelimit.interceptor.testsupport;

import io.lettuce.core.RedisURI;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;

/**
 * A real Redis Cluster for tests: three masters and three replicas, six {@code redis-server} processes
 * on free ports (the binary {@link RedisServerProcess} finds). Master {@code i} (0..2) holds a third of
 * the slots; its replica is node {@code i + 3}. The cluster is formed with plain cluster commands
 * ({@code CLUSTER ADDSLOTS / MEET / REPLICATE}), so no {@code redis-cli} is needed. A node can be killed
 * to force a failover, and started again, when it rejoins as a replica.
 */
public final class RedisClusterProcess implements AutoCloseable {

    public static final int MASTERS = 3;
    /** Low so that a killed master is failed over in a few seconds. */
    public static final Duration NODE_TIMEOUT = Duration.ofMillis(1500);
    private static final int SLOTS = 16384;
    /** A node's cluster bus listens on its port + 10000. */
    private static final int BUS_OFFSET = 10000;
    private static final Duration FORMED = Duration.ofSeconds(30);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(10);

    private final List<RedisServerProcess> nodes;
    private final List<String> nodeIds = new ArrayList<>();
    private RedisClusterClient clusterClient;
    private StatefulRedisClusterConnection<String, String> clusterConnection;

    private RedisClusterProcess(List<RedisServerProcess> nodes) {
        this.nodes = nodes;
    }

    /** Starts six nodes and forms the cluster; returns when every node reports {@code cluster_state:ok} and every replica is in sync. */
    public static RedisClusterProcess start() {
        List<RedisServerProcess> nodes = new ArrayList<>();
        RedisClusterProcess cluster = new RedisClusterProcess(nodes);
        try {
            for (int i = 0; i < MASTERS * 2; i++) {
                nodes.add(RedisServerProcess.start(freeNodePort(), List.of("--cluster-enabled", "yes",
                        "--cluster-config-file", "nodes.conf",
                        "--cluster-node-timeout", Long.toString(NODE_TIMEOUT.toMillis()))));
            }
            cluster.form();
            return cluster;
        } catch (RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /** {@code host:port,host:port,...} of every node, as {@code spring.data.redis.cluster.nodes} takes it. */
    public String nodeList() {
        return nodes.stream().map(node -> "127.0.0.1:" + node.port()).collect(Collectors.joining(","));
    }

    /**
     * The Spring properties that point an app at this cluster, with topology refresh so it follows a
     * failover, followed by {@code more}.
     */
    public String[] springProperties(String... more) {
        List<String> all = new ArrayList<>(List.of("spring.data.redis.cluster.nodes=" + nodeList(),
                "spring.data.redis.lettuce.cluster.refresh.adaptive=true",
                "spring.data.redis.lettuce.cluster.refresh.period=1s"));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    public int port(int node) {
        return nodes.get(node).port();
    }

    /** Commands on one node only (e.g. {@code CLUSTER INFO}, {@code ROLE}). */
    public RedisCommands<String, String> node(int node) {
        return nodes.get(node).commands();
    }

    /** Commands routed by key to the node that holds the slot, as a cluster client sends them. */
    public synchronized RedisAdvancedClusterCommands<String, String> commands() {
        if (clusterConnection == null) {
            clusterClient = RedisClusterClient.create(nodes.stream()
                    .map(node -> RedisURI.builder().withHost("127.0.0.1").withPort(node.port())
                            .withTimeout(COMMAND_TIMEOUT).build()).toList());
            clusterConnection = clusterClient.connect();
        }
        return clusterConnection.sync();
    }

    /** The node (index) that is master of {@code slot} now, according to a running node. */
    public int masterOf(int slot) {
        for (RedisServerProcess node : nodes) {
            if (node.isRunning()) {
                for (String line : node.commands().clusterNodes().split("\n")) {
                    String[] fields = line.split(" ");
                    if (fields[2].contains("master") && !fields[2].contains("fail") && holds(fields, slot)) {
                        return nodeIds.indexOf(fields[0]);
                    }
                }
            }
        }
        throw new IllegalStateException("No master serves slot " + slot);
    }

    /** The slot of a key, as the cluster computes it (hash tags included). */
    public int slotOf(String key) {
        return Math.toIntExact(commands().clusterKeyslot(key));
    }

    /** The counter keys whose name contains {@code part}, from every running master. */
    public List<String> counterKeys(String part) {
        return nodes.stream().filter(RedisServerProcess::isRunning).map(RedisServerProcess::commands)
                .filter(commands -> commands.role().get(0).equals("master"))
                .flatMap(commands -> commands.keys("ratelimit:counter:*" + part + "*").stream()).toList();
    }

    public boolean isRunning(int node) {
        return nodes.get(node).isRunning();
    }

    /** Kills a node as a crash would. */
    public void kill(int node) {
        nodes.get(node).stop();
    }

    /**
     * Waits until the replica of master {@code killedMaster} has taken its place: every running node
     * reports {@code cluster_state:ok} and the replica is a master.
     */
    public void awaitFailover(int killedMaster, Duration atMost) {
        int replica = killedMaster + MASTERS;
        Awaitility.await("replica " + replica + " promoted").atMost(atMost).pollInterval(Duration.ofMillis(50))
                .ignoreExceptions()
                .until(() -> node(replica).role().get(0).equals("master") && everyRunningNode(this::stateOk));
        refreshTopology();
    }

    /** Starts a killed node again; it comes back with its node file and rejoins as a replica of its old replica. */
    public void restart(int node) {
        nodes.get(node).restart();
        Awaitility.await("node " + node + " rejoined").atMost(FORMED).pollInterval(Duration.ofMillis(100))
                .ignoreExceptions()
                .until(() -> node(node).role().get(0).equals("slave") && everyRunningNode(this::stateOk));
        refreshTopology();
    }

    /** Lets {@link #commands()} learn who serves which slot now. */
    private synchronized void refreshTopology() {
        if (clusterClient != null) {
            clusterClient.refreshPartitions();
        }
    }

    @Override
    public synchronized void close() {
        if (clusterConnection != null) {
            clusterConnection.close();
            clusterClient.shutdown(Duration.ZERO, Duration.ofSeconds(2));
            clusterConnection = null;
        }
        nodes.forEach(RedisServerProcess::close);
    }

    private void form() {
        for (RedisServerProcess node : nodes) {
            nodeIds.add(node.commands().clusterMyId());
        }
        for (int master = 0; master < MASTERS; master++) {
            RedisCommands<String, String> commands = node(master);
            // Distinct epochs before the nodes meet, as redis-cli does, so no epoch collision needs resolving.
            commands.clusterSetConfigEpoch(master + 1);
            commands.clusterAddSlots(IntStream.range(SLOTS * master / MASTERS, SLOTS * (master + 1) / MASTERS).toArray());
        }
        for (int i = 1; i < nodes.size(); i++) {
            node(0).clusterMeet("127.0.0.1", port(i));
        }
        Awaitility.await("every node knows every node").atMost(FORMED).pollInterval(Duration.ofMillis(50))
                .until(() -> everyRunningNode(commands -> commands.clusterNodes().lines()
                        .filter(line -> !line.contains("handshake")).count() == nodes.size()));
        for (int master = 0; master < MASTERS; master++) {
            node(master + MASTERS).clusterReplicate(nodeIds.get(master));
        }
        Awaitility.await("cluster formed, replicas in sync").atMost(FORMED).pollInterval(Duration.ofMillis(50))
                .ignoreExceptions()
                .until(() -> everyRunningNode(this::stateOk) && IntStream.range(MASTERS, nodes.size())
                        .allMatch(replica -> node(replica).info("replication").contains("master_link_status:up")));
    }

    private boolean stateOk(RedisCommands<String, String> commands) {
        return commands.clusterInfo().contains("cluster_state:ok");
    }

    private boolean everyRunningNode(Predicate<RedisCommands<String, String>> condition) {
        return nodes.stream().filter(RedisServerProcess::isRunning).map(RedisServerProcess::commands).allMatch(condition);
    }

    /** Whether a {@code CLUSTER NODES} line lists {@code slot} among its ranges (fields 8 on). */
    private static boolean holds(String[] fields, int slot) {
        for (int i = 8; i < fields.length; i++) {
            String[] range = fields[i].split("-");
            if (range[0].startsWith("[")) {
                continue;
            }
            int first = Integer.parseInt(range[0]);
            int last = range.length > 1 ? Integer.parseInt(range[1]) : first;
            if (slot >= first && slot <= last) {
                return true;
            }
        }
        return false;
    }

    /** A free port whose cluster bus port (+10000) is free too and exists. */
    private static int freeNodePort() {
        for (int attempt = 0; attempt < 100; attempt++) {
            int port = RedisServerProcess.freePort();
            if (port + BUS_OFFSET <= 65535 && RedisServerProcess.isFree(port + BUS_OFFSET)) {
                return port;
            }
        }
        throw new IllegalStateException("No free port pair (port, port + 10000) found");
    }
}
