package dev.ratelimit.interceptor.web;

import dev.ratelimit.interceptor.rule.LimitDefinition;
import dev.ratelimit.interceptor.store.Decision;

/**
 * Why a request is rejected: the most restrictive limit that denied it.
 *
 * @param retryAfterSeconds whole seconds, rounded up, after which a request is admitted again
 * @param message           the rejection text in the request's locale
 */
public record Rejection(LimitDefinition limit, Decision decision, long retryAfterSeconds, String message) {
}
