@NullMarked
package dev.ratelimit.interceptor.web;

import org.jspecify.annotations.NullMarked;
