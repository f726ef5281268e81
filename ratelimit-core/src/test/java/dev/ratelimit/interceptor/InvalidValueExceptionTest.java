package dev.ratelimit.interceptor;

import static org.assertj.core.api.Assertions.assertThat;

import java.text.MessageFormat;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.ResourceBundle;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.context.support.ResourceBundleMessageSource;

/** Every refusal has its text in the four languages of the one catalog, and tools show it in the operator's. */
class InvalidValueExceptionTest {

    private static final ResourceBundle ENGLISH = ResourceBundle.getBundle("ratelimit/messages", Locale.ROOT);

    @ParameterizedTest
    @ValueSource(strings = {"ja", "zh-CN", "zh-TW"})
    void everyRefusalIsTranslatedAndFormats(String language) {
        Locale locale = Locale.forLanguageTag(language);
        ResourceBundle translated = ResourceBundle.getBundle("ratelimit/messages", locale);
        List<String> keys = Collections.list(ENGLISH.getKeys()).stream().filter(key -> key.startsWith("ratelimit.config."))
                .toList();

        assertThat(keys).hasSizeGreaterThan(15).allSatisfy(key -> {
            assertThat(translated.getString(key)).as(key).isNotEqualTo(ENGLISH.getString(key));
            assertThat(new MessageFormat(translated.getString(key), locale).format(new Object[] {"a", "b", "c"}))
                    .as(key).doesNotContain("{0}", "{1}", "{2}");
        });
    }

    @Test
    void theMessageIsEnglishAndTheOperatorSeesItInTheirLanguage() {
        InvalidValueException refused = new InvalidValueException("ratelimit.config.window", 31_622_400L, 99_999L)
                .about("shop.A.b.interval");
        ResourceBundleMessageSource messages = new ResourceBundleMessageSource();
        messages.setBasename("ratelimit/messages");
        messages.setDefaultEncoding("UTF-8");
        messages.setFallbackToSystemLocale(false);

        assertThat(refused).hasMessage("shop.A.b.interval: a window is at most 366 days (31622400 s), got 99999 s");
        assertThat(refused.message(messages, Locale.JAPANESE))
                .isEqualTo("shop.A.b.interval: ウィンドウは最長 366 日 (31622400 秒) です。指定: 99999 秒");
        assertThat(new InvalidValueException("ratelimit.config.pattern.braces").message(messages, Locale.SIMPLIFIED_CHINESE))
                .isEqualTo("URL 模式中的 '{' '}' 不配对");
    }
}
