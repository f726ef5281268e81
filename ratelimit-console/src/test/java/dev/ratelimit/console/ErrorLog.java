package dev.ratelimit.console;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.AppenderBase;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.LoggerFactory;

/** What the apps of this JVM log at ERROR while it is open, whatever the logger: a page that failed is one. */
public final class ErrorLog extends AppenderBase<ILoggingEvent> implements AutoCloseable {

    private final List<String> errors = new CopyOnWriteArrayList<>();

    private ErrorLog() {
    }

    public static ErrorLog capture() {
        ErrorLog log = new ErrorLog();
        log.setName("console-test-errors");
        log.start();
        root().addAppender(log);
        return log;
    }

    @Override
    protected void append(ILoggingEvent event) {
        if (event.getLevel().isGreaterOrEqual(Level.ERROR)) {
            errors.add(event.getLoggerName() + ": " + event.getFormattedMessage()
                    + (event.getThrowableProxy() == null ? "" : "\n" + ThrowableProxyUtil.asString(event.getThrowableProxy())));
        }
    }

    /** How many errors were logged so far: what {@link #since} counts from. */
    public int mark() {
        return errors.size();
    }

    /** The errors logged after {@code mark}, each with its logger and stack trace. */
    public List<String> since(int mark) {
        return List.copyOf(errors.subList(mark, errors.size()));
    }

    @Override
    public void close() {
        root().detachAppender(this);
        stop();
    }

    private static Logger root() {
        return (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    }
}
