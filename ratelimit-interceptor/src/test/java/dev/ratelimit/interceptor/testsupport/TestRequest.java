package dev.ratelimit.interceptor.testsupport;

import dev.ratelimit.interceptor.decision.LimitedRequest;
import dev.ratelimit.interceptor.rule.LimitDefinition;

/** A request to {@code POST /orders} as the web layer would describe it, for tests that call the limiter directly. */
public record TestRequest(String user, String verifiedUser, String ip, String key, long units) implements LimitedRequest {

    public TestRequest(String user, String ip, long units) {
        this(user, user, ip, null, units);
    }

    @Override
    public String path() {
        return "/orders";
    }

    @Override
    public String identity(LimitDefinition limit) {
        return switch (limit.dimension()) {
            case USER -> user;
            case IP -> ip;
            case CUSTOM -> key;
            default -> "all";
        };
    }

    @Override
    public long cost(LimitDefinition limit) {
        return units;
    }

    @Override
    public String plan(LimitDefinition limit) {
        return null;
    }

    @Override
    public String clientIp() {
        return ip;
    }

    @Override
    public String user() {
        return user;
    }

    @Override
    public String httpMethod() {
        return "POST";
    }

    @Override
    public String uri() {
        return "/orders";
    }
}
