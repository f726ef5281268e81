package dev.ratelimit.console;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.servlet.ModelAndView;

/**
 * 503 with the console's error page, for a query of the interception log that timed out where a page or a
 * form did not catch it: declared only in an app with Spring's data access classes, which the log needs.
 */
@ControllerAdvice(basePackages = "dev.ratelimit.console")
public class DatabaseDidNotAnswer {

    private final ConsoleModel model;

    public DatabaseDidNotAnswer(ConsoleModel model) {
        this.model = model;
    }

    @ExceptionHandler(QueryTimeoutException.class)
    public ModelAndView didNotAnswer(QueryTimeoutException failure, HttpServletRequest request) {
        return model.unavailable("console.error.database", failure, request);
    }
}
