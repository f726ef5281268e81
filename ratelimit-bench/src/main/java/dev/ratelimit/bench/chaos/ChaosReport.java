package dev.ratelimit.bench.chaos;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the chaos run's clients saw, checked. A window of {@code /user} (2 per user per minute, a fixed
 * window) is found from the admitted responses themselves: each says when its window ends ({@code t} of
 * its {@code RateLimit} field), so the admissions of one user whose window ends within a few seconds of each
 * other are one window. A window with an admission that may have been decided while Redis did not answer
 * (or before the circuit closed again) is left out of the over-limit count: there the failure policy
 * decides on each instance alone, as documented. A flush or a restart starts every window afresh:
 * admissions sent before and after it are never one window, and a window with an admission in flight
 * across it is left out too.
 */
final class ChaosReport {

    /** Admissions of one window end within this of each other: {@code t} is rounded up to a second. */
    private static final long SAME_WINDOW_NANOS = Duration.ofSeconds(3).toNanos();

    private final List<Observation> observations;
    private final List<ChaosEvent> events;
    private final long unanswered;
    private final boolean keptAtEnd;
    private final Duration length;
    private final int threads;
    private final int users;

    ChaosReport(List<Observation> observations, List<ChaosEvent> events, long unanswered, boolean keptAtEnd,
                Duration length, int threads, int users) {
        this.observations = observations;
        this.events = events;
        this.unanswered = unanswered;
        this.keptAtEnd = keptAtEnd;
        this.length = length;
        this.threads = threads;
        this.users = users;
    }

    /** What the clients saw, counted. */
    Figures figures() {
        long serverErrors = observations.stream().filter(o -> o.status() >= 500).count();
        long otherLimit = observations.stream().filter(o -> o.status() < 500 && o.count()
                != ChaosRun.operatorCount(o.path())).count();
        long admitted = observations.stream().filter(Observation::admitted).count();
        Windows windows = windows();
        long lost = events.stream().filter(event -> event.backMillis() < 0).count() + (keptAtEnd ? 0 : 1);
        return new Figures(observations.size(), admitted, serverErrors, otherLimit, windows.checked(), windows.over(),
                windows.skipped(), lost);
    }

    String markdown() {
        Figures figures = figures();
        StringBuilder out = new StringBuilder();
        out.append("## Chaos run: ").append(length.toMinutes()).append(" min, 2 instances, ").append(threads)
                .append(" client threads, ").append(users).append(" users\n\n")
                .append("| measure | value |\n|---|---|\n")
                .append("| responses | ").append(figures.responses()).append(" (").append(figures.admitted())
                .append(" admitted) |\n")
                .append("| 5xx | ").append(figures.serverErrors()).append(" |\n")
                .append("| decided by another limit than the operator's | ").append(figures.otherLimit()).append(" |\n")
                .append("| `/user` windows checked (Redis answering) | ").append(figures.windowsChecked()).append(" |\n")
                .append("| admitted over the limit in those windows | ").append(figures.over()).append(" |\n")
                .append("| `/user` windows left out (Redis away, just back or just emptied) | ")
                .append(figures.windowsSkipped()).append(" |\n")
                .append("| operator values not back in Redis within 15 s of an event, or missing at the end | ")
                .append(figures.lost()).append(" |\n")
                .append("| requests unanswered (to a paused instance, past the client's 10 s) | ").append(unanswered)
                .append(" |\n\n")
                .append("| event | at (s) | over after (ms) | operator values back after (ms) |\n")
                .append("|---|---|---|---|\n");
        for (ChaosEvent event : events) {
            out.append("| ").append(event.name()).append(" | ").append(event.start() / 1_000_000_000).append(" | ")
                    .append((event.end() - event.start()) / 1_000_000).append(" | ")
                    .append(event.backMillis() < 0 ? "not within 15 s" : Long.toString(event.backMillis()))
                    .append(" |\n");
        }
        return out.toString();
    }

    private Windows windows() {
        Map<String, List<Observation>> byUser = new HashMap<>();
        for (Observation observation : observations) {
            if (observation.path().equals("/user") && observation.admitted() && observation.resetSeconds() >= 0) {
                byUser.computeIfAbsent(observation.user() + "@" + resetsBefore(observation.sent()),
                        user -> new ArrayList<>()).add(observation);
            }
        }
        long checked = 0;
        long over = 0;
        long skipped = 0;
        for (List<Observation> admissions : byUser.values()) {
            admissions.sort(Comparator.comparingLong(ChaosReport::windowEnd));
            int first = 0;
            for (int i = 1; i <= admissions.size(); i++) {
                if (i == admissions.size()
                        || windowEnd(admissions.get(i)) - windowEnd(admissions.get(i - 1)) > SAME_WINDOW_NANOS) {
                    List<Observation> window = admissions.subList(first, i);
                    if (window.stream().anyMatch(this::unsettled)) {
                        skipped++;
                    } else {
                        checked++;
                        over += Math.max(0, window.size() - ChaosRun.USER_COUNT);
                    }
                    first = i;
                }
            }
        }
        return new Windows(checked, over, skipped);
    }

    private static long windowEnd(Observation admission) {
        return admission.at() + admission.resetSeconds() * 1_000_000_000L;
    }

    private boolean unsettled(Observation admission) {
        return events.stream().anyMatch(event -> event.unsettles(admission.sent(), admission.at()));
    }

    /** How many times every counter was emptied before {@code at}: admissions of different counts are different windows. */
    private long resetsBefore(long at) {
        return events.stream().filter(event -> event.resets() && event.start() < at).count();
    }

    private record Windows(long checked, long over, long skipped) {
    }

    /**
     * @param over  admissions past the limit in windows decided by Redis alone
     * @param lost  events after which the operator's values were not back in Redis, and their absence at the end
     */
    record Figures(long responses, long admitted, long serverErrors, long otherLimit, long windowsChecked, long over,
                   long windowsSkipped, long lost) {
    }
}
