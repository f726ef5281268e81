package dev.ratelimit.interceptor.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ratelimit.interceptor.identity.DenyList;
import dev.ratelimit.interceptor.rule.RuleId;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The module a config field belongs to, which the console's module scoping decides by. */
class SysConfigFieldsTest {

    private static final Set<String> MODULES = Set.of("shop", "shop.admin", "billing");

    @Test
    void aRulesKnobsPlansExceptionsAndDynFieldsBelongToItsModule() {
        RuleId rule = RuleId.of("shop", "Orders.create");
        assertThat(SysConfigFields.module(Knob.COUNT.field(rule), MODULES)).isEqualTo("shop");
        assertThat(SysConfigFields.module(SysConfigFields.plan(rule, "pro"), MODULES)).isEqualTo("shop");
        assertThat(SysConfigFields.module(SysConfigFields.exception(rule, "acme"), MODULES)).isEqualTo("shop");
        assertThat(SysConfigFields.module(SysConfigFields.dyn(RuleId.of("billing", "Open.get")), MODULES))
                .isEqualTo("billing");
        assertThat(SysConfigFields.module(SysConfigFields.declared(Knob.WINDOW.field(rule)), MODULES)).isEqualTo("shop");
    }

    @Test
    void theLongestKnownModuleWinsForAModuleNameWithDots() {
        assertThat(SysConfigFields.module(Knob.COUNT.field(RuleId.of("shop.admin", "Users.list")), MODULES))
                .isEqualTo("shop.admin");
    }

    @Test
    void whatEveryAppSharesAndUnknownModulesBelongToNoModule() {
        for (String field : new String[] {SysConfigFields.GLOBAL_CHECK, SysConfigFields.GLOBAL_MODE,
                SysConfigFields.LOG_CHECK, SysConfigFields.WHITELIST_IPS, SysConfigFields.WHITELIST_USERS,
                SysConfigFields.VERSION, SysConfigFields.dynUri("/shop/**"),
                SysConfigFields.deny(DenyList.Kind.USER, "shop.mallory"),
                Knob.COUNT.field(RuleId.of("elsewhere", "A.b"))}) {
            assertThat(SysConfigFields.module(field, MODULES)).as(field).isNull();
        }
    }
}
