package dev.ratelimit.console.access;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseCookie;

/** The console's cookies: HttpOnly, SameSite=Strict, Secure on HTTPS, scoped to the console path. */
final class ConsoleCookies {

    private ConsoleCookies() {
    }

    static String value(HttpServletRequest request, String name) {
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie cookie : cookies) {
                if (name.equals(cookie.getName())) {
                    return cookie.getValue();
                }
            }
        }
        return null;
    }

    /** Sets a cookie; {@code maxAgeSeconds} 0 deletes it. */
    static void set(HttpServletRequest request, HttpServletResponse response, String name, String value, String path,
                    int maxAgeSeconds) {
        ResponseCookie cookie = ResponseCookie.from(name, value)
                .httpOnly(true)
                .sameSite("Strict")
                .secure(request.isSecure())
                .path(path)
                .maxAge(maxAgeSeconds)
                .build();
        response.addHeader(HttpHeaders.SET_COOKIE, cookie.toString());
    }
}
