package dev.ratelimit.console;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a console form that changes nothing, such as the preview of a rules document: it is posted (a
 * document is too long for a link, and the form carries the CSRF token) but writes nothing, so a viewer may
 * use it too. Every other form is refused to a viewer before its controller runs.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface ReadOnlyForm {
}
