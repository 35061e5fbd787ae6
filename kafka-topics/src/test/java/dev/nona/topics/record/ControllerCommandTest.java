package dev.nona.topics.record;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.nona.topics.Topics;
import dev.nona.topics.serde.JsonSerde;
import dev.nona.topics.serde.Parsed;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class ControllerCommandTest {
    private final JsonSerde<ControllerCommand> serde = JsonSerde.forTopic(Topics.CONTROLLER_COMMANDS);

    @Test
    void wireFormat_eachKind_isTheDocumentedOne() {
        assertThat(json(ControllerCommand.pin("c1", 5, "resnet18", List.of("s1", "s2")))).isEqualTo(
                "{'schemaVersion':1,'commandId':'c1','kind':'PIN_MODEL','issuedAt':5,'model':'resnet18','servers':['s1','s2']}");
        assertThat(json(ControllerCommand.drain("c2", 5, "s3", true))).isEqualTo(
                "{'schemaVersion':1,'commandId':'c2','kind':'DRAIN_SERVER','issuedAt':5,'server':'s3'}");
        assertThat(json(ControllerCommand.rollback("c3", 5, 4))).isEqualTo(
                "{'schemaVersion':1,'commandId':'c3','kind':'ROLLBACK_TABLE','issuedAt':5,'tableVersion':4}");
        assertThat(json(ControllerCommand.freeze("c4", 5, false))).isEqualTo(
                "{'schemaVersion':1,'commandId':'c4','kind':'UNFREEZE','issuedAt':5}");
        assertThat(json(ControllerCommand.tenantRule("c5", 5, "acme", List.of("s1"), 0.25))).isEqualTo(
                "{'schemaVersion':1,'commandId':'c5','kind':'TENANT_RULE','issuedAt':5,'tenant':'acme','servers':['s1'],'maxShare':0.25}");
    }

    @Test
    void roundTrip_everyKind_isEqualAfterWriteAndRead() {
        for (ControllerCommand c : List.of(ControllerCommand.pin("c1", 5, "m", List.of()),
                ControllerCommand.drain("c2", 5, "s3", false), ControllerCommand.rollback("c3", 5, 1),
                ControllerCommand.freeze("c4", 5, true), ControllerCommand.tenantRule("c5", 5, "t", List.of("a", "b"), 1))) {
            Parsed<ControllerCommand> parsed = serde.parse(serde.serialize(c));
            assertThat(parsed.ok()).as("%s", parsed).isTrue();
            assertThat(parsed.value()).isEqualTo(c);
        }
    }

    @Test
    void key_isTheScope_soThatCompactionKeepsTheLatestPerScope() {
        assertThat(key(ControllerCommand.pin("c1", 5, "m", List.of("s")))).isEqualTo("pin:m");
        assertThat(key(ControllerCommand.drain("c2", 5, "s3", true))).isEqualTo("drain:s3");
        assertThat(key(ControllerCommand.drain("c3", 6, "s3", false))).isEqualTo("drain:s3");
        assertThat(key(ControllerCommand.freeze("c4", 5, true))).isEqualTo("freeze");
        assertThat(key(ControllerCommand.freeze("c5", 5, false))).isEqualTo("freeze");
        assertThat(key(ControllerCommand.rollback("c6", 5, 2))).isEqualTo("rollback");
        assertThat(key(ControllerCommand.tenantRule("c7", 5, "acme", List.of(), 1))).isEqualTo("tenant:acme");
        assertThat(Topics.CONTROLLER_COMMANDS.compacted()).isTrue();
        assertThat(Topics.all()).contains(Topics.CONTROLLER_COMMANDS);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            missing kind        | {'schemaVersion':1,'commandId':'c','issuedAt':1}                                           | field 'kind' is missing
            unknown kind        | {'schemaVersion':1,'commandId':'c','kind':'REBOOT','issuedAt':1}                           | field 'kind': Cannot deserialize value of type `dev.nona.topics.record.CommandKind` from String "REBOOT"
            blank id            | {'schemaVersion':1,'commandId':' ','kind':'FREEZE','issuedAt':1}                           | field 'commandId' (' ') must not be blank
            pin without model   | {'schemaVersion':1,'commandId':'c','kind':'PIN_MODEL','issuedAt':1,'servers':['s']}        | field 'model' is missing (null); kind PIN_MODEL needs it
            pin without servers | {'schemaVersion':1,'commandId':'c','kind':'PIN_MODEL','issuedAt':1,'model':'m'}            | field 'servers' is missing (null); kind PIN_MODEL needs it
            drain with model    | {'schemaVersion':1,'commandId':'c','kind':'DRAIN_SERVER','issuedAt':1,'server':'s','model':'m'} | field 'model' (m) must be absent for kind DRAIN_SERVER
            freeze with server  | {'schemaVersion':1,'commandId':'c','kind':'FREEZE','issuedAt':1,'server':'s'}              | field 'server' (s) must be absent for kind FREEZE
            rollback to 0       | {'schemaVersion':1,'commandId':'c','kind':'ROLLBACK_TABLE','issuedAt':1,'tableVersion':0}  | field 'tableVersion' (0) must be >= 1
            share above 1       | {'schemaVersion':1,'commandId':'c','kind':'TENANT_RULE','issuedAt':1,'tenant':'t','servers':['s'],'maxShare':1.5} | field 'maxShare' (1.5) must be in (0, 1]
            share 0             | {'schemaVersion':1,'commandId':'c','kind':'TENANT_RULE','issuedAt':1,'tenant':'t','servers':['s'],'maxShare':0}   | field 'maxShare' (0.0) must be in (0, 1]
            server twice        | {'schemaVersion':1,'commandId':'c','kind':'PIN_MODEL','issuedAt':1,'model':'m','servers':['a','a']} | field 'servers[1]' ('a') is listed twice
            blank server        | {'schemaVersion':1,'commandId':'c','kind':'PIN_MODEL','issuedAt':1,'model':'m','servers':[' ']}     | field 'servers[0]' (' ') must not be blank
            unknown version     | {'schemaVersion':2,'commandId':'c','kind':'FREEZE','issuedAt':1}                           | field 'schemaVersion' (2) is not supported (supported: 1)
            """)
    void parse_invalidCommand_isRejectedWithReasonNamingFieldAndValue(String what, String json, String reason) {
        Parsed<ControllerCommand> parsed = serde.parse(json.replace('\'', '"'));

        assertThat(parsed.ok()).as(what).isFalse();
        assertThat(parsed.reason()).as(what).contains(reason.replace("''", "'"));
    }

    @Test
    void constructor_badShare_namesFieldAndValue() {
        assertThatThrownBy(() -> ControllerCommand.tenantRule("c", 1, "t", List.of("s"), Double.NaN))
                .isInstanceOf(InvalidRecordException.class).hasMessage("field 'maxShare' (NaN) must be in (0, 1]");
    }

    private String json(ControllerCommand c) {
        return new String(serde.serialize(c), StandardCharsets.UTF_8).replace('"', '\'');
    }

    private String key(ControllerCommand c) {
        return new String(serde.keyBytes(c), StandardCharsets.UTF_8);
    }
}
