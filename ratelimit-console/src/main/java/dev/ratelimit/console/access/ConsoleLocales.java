package dev.ratelimit.console.access;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Enumeration;
import java.util.List;
import java.util.Locale;

/**
 * The console's language: {@code ?lang=} (remembered in a cookie), else the cookie, else the best of
 * the browser's languages, else English. The languages of the i18n module are offered, each with every
 * label translated.
 */
public final class ConsoleLocales {

    public static final List<Locale> SUPPORTED = List.of(Locale.ENGLISH, Locale.GERMAN, Locale.forLanguageTag("es"),
            Locale.FRENCH, Locale.forLanguageTag("pt"), Locale.JAPANESE, Locale.KOREAN, Locale.SIMPLIFIED_CHINESE,
            Locale.TRADITIONAL_CHINESE);
    static final String PARAMETER = "lang";
    static final String COOKIE = "rlc_lang";

    private ConsoleLocales() {
    }

    static Locale resolve(HttpServletRequest request, HttpServletResponse response, String cookiePath) {
        Locale chosen = supported(request.getParameter(PARAMETER));
        if (chosen != null) {
            ConsoleCookies.set(request, response, COOKIE, chosen.toString(), cookiePath, 365 * 24 * 3600);
            return chosen;
        }
        chosen = supported(ConsoleCookies.value(request, COOKIE));
        if (chosen != null) {
            return chosen;
        }
        Enumeration<Locale> browser = request.getLocales();
        while (browser.hasMoreElements()) {
            Locale match = match(browser.nextElement());
            if (match != null) {
                return match;
            }
        }
        return Locale.ENGLISH;
    }

    private static Locale supported(String tag) {
        if (tag == null || tag.isBlank()) {
            return null;
        }
        return match(Locale.forLanguageTag(tag.replace('_', '-')));
    }

    /** zh-TW, zh-HK, zh-MO and zh-Hant read Traditional Chinese; any other zh reads Simplified. */
    private static Locale match(Locale locale) {
        if (locale.getLanguage().equals("zh")) {
            return "Hant".equals(locale.getScript()) || List.of("TW", "HK", "MO").contains(locale.getCountry())
                    ? Locale.TRADITIONAL_CHINESE : Locale.SIMPLIFIED_CHINESE;
        }
        return SUPPORTED.stream().filter(supported -> supported.getLanguage().equals(locale.getLanguage()))
                .findFirst().orElse(null);
    }
}
