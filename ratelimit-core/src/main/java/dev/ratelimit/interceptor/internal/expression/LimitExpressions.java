package dev.ratelimit.interceptor.internal.expression;

/**
 * The app's limit expressions by what they read, each parsed once: the catalog parses them when it registers
 * a limit, whatever the app is (a bad one fails the start with the method named), and the web layer, where
 * there is one, evaluates them from here on every request.
 *
 * @param keys the {@code key} expressions of {@code CUSTOM} limits
 * @param requests the expressions on the request: {@code costExpression}, {@code plan}
 * @param responses the expressions on the response: {@code countWhen}, {@code costFromResponse}
 */
public record LimitExpressions(ParsedExpressions keys, ParsedExpressions requests, ParsedExpressions responses) {

    public static LimitExpressions create() {
        return new LimitExpressions(new ParsedExpressions("key expression"), new ParsedExpressions("expression"),
                new ParsedExpressions("expression"));
    }
}
