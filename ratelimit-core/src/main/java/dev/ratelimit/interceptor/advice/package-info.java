/**
 * The limit advisor: how many clients' demand reached each count in each window of a rule, recorded by every
 * instance, merged in Redis, and what a candidate limit would have refused of it.
 */
@NullMarked
package dev.ratelimit.interceptor.advice;

import org.jspecify.annotations.NullMarked;
