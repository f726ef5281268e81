package dev.ratelimit.interceptor.log;

import java.time.ZoneId;

/**
 * The zone of the interception log's wall-clock times ({@code ratelimit.log.time-zone}): rows, report
 * days and the console's time filter all read times in it. Shared as a bean, present when the log is.
 */
public record LogTimeZone(ZoneId zone) {
}
