@NullMarked
package dev.ratelimit.console.report;

import org.jspecify.annotations.NullMarked;
