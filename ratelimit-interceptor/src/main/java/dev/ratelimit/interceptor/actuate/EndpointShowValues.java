package dev.ratelimit.interceptor.actuate;

import java.util.LinkedHashSet;
import java.util.Set;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;

/**
 * Who sees the clients an actuator endpoint of the limiter names (user codes, addresses, keys, operators'
 * notes): Spring Boot's convention for sensitive values, as {@code management.endpoint.env.show-values} and
 * {@code roles} set it for {@code env}; bound to {@code management.endpoint.<id>.*}.
 */
public class EndpointShowValues {

    /** When to show the clients the endpoint names and operators' notes; otherwise each reads ******. */
    private Show showValues = Show.NEVER;

    /** Roles a user needs for when-authorized to show them; empty: any authenticated user. */
    private final Set<String> roles = new LinkedHashSet<>();

    public Show getShowValues() {
        return showValues;
    }

    public void setShowValues(Show showValues) {
        this.showValues = showValues;
    }

    public Set<String> getRoles() {
        return roles;
    }

    /** Over the web: as the request's user is authorized. */
    boolean shown(SecurityContext user) {
        return showValues.isShown(user, roles);
    }

    /** Where there is no user to authorize (JMX, a call in code): {@code when-authorized} shows them, as Spring Boot does. */
    boolean shown() {
        return showValues.isShown(true);
    }
}
