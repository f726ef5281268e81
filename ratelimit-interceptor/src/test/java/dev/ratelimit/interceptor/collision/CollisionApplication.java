package dev.ratelimit.interceptor.collision;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * An app whose handler methods derive colliding rule names: overloads in one controller, and two
 * controllers with the same simple name in two packages (imported, so their bean names differ).
 */
@SpringBootConfiguration
@EnableAutoConfiguration
@Import({dev.ratelimit.interceptor.collision.a.TwinController.class,
        dev.ratelimit.interceptor.collision.b.TwinController.class})
public class CollisionApplication {
}
