package dev.nona.topics.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.nona.topics.Topics;
import dev.nona.topics.record.InferenceRequest;
import dev.nona.topics.record.OutcomeStatus;
import dev.nona.topics.record.PlacementOutcome;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

final class JsonSerdeValidationTest {

    private static final String VALID_REQUEST =
            "{'schemaVersion':1,'id':'r','model':'m','tenant':'t','eventTime':12}";

    private final JsonSerde<InferenceRequest> requests = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS);

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            missing field        | {'schemaVersion':1,'id':'r','model':'m','tenant':'t'}                                   | field 'eventTime' is missing
            string for long      | {'schemaVersion':1,'id':'r','model':'m','tenant':'t','eventTime':'abc'}                 | field 'eventTime': Cannot coerce String value ("abc") to `long` value
            numeric string       | {'schemaVersion':1,'id':'r','model':'m','tenant':'t','eventTime':'12'}                  | field 'eventTime': Cannot coerce String value ("12")
            float for long       | {'schemaVersion':1,'id':'r','model':'m','tenant':'t','eventTime':1.5}                   | field 'eventTime': Cannot coerce Floating-point value (1.5)
            null for long        | {'schemaVersion':1,'id':'r','model':'m','tenant':'t','eventTime':null}                  | field 'eventTime': Cannot map `null` into type `long`
            negative time        | {'schemaVersion':1,'id':'r','model':'m','tenant':'t','eventTime':-1}                    | field 'eventTime' (-1) must be >= 0
            number for string    | {'schemaVersion':1,'id':12,'model':'m','tenant':'t','eventTime':12}                     | field 'id': Cannot coerce Integer value (12)
            blank string         | {'schemaVersion':1,'id':'r','model':' ','tenant':'t','eventTime':12}                    | field 'model' (' ') must not be blank
            null string          | {'schemaVersion':1,'id':'r','model':null,'tenant':'t','eventTime':12}                   | field 'model' is missing (null)
            negative size        | {'schemaVersion':1,'id':'r','model':'m','tenant':'t','eventTime':12,'payloadBytes':-5}  | field 'payloadBytes' (-5) must be >= 0
            NaN size             | {'schemaVersion':1,'id':'r','model':'m','tenant':'t','eventTime':12,'payloadBytes':NaN} | Non-standard token 'NaN'
            unknown field        | {'schemaVersion':1,'id':'r','model':'m','tenant':'t','eventTime':12,'extra':1}          | field 'extra' is not in the schema (unknown field)
            duplicate field      | {'schemaVersion':1,'id':'r','model':'m','model':'x','tenant':'t','eventTime':12}        | Duplicate field 'model'
            unknown version      | {'schemaVersion':2,'id':'r','model':'m','tenant':'t','eventTime':12,'newField':3}       | field 'schemaVersion' (2) is not supported (supported: 1)
            missing version      | {'id':'r','model':'m','tenant':'t','eventTime':12}                                      | field 'schemaVersion' is missing
            string version       | {'schemaVersion':'1','id':'r','model':'m','tenant':'t','eventTime':12}                  | field 'schemaVersion' ("1") must be an integer
            float version        | {'schemaVersion':1.0,'id':'r','model':'m','tenant':'t','eventTime':12}                  | field 'schemaVersion' (1.0) must be an integer
            long version         | {'schemaVersion':4294967297,'id':'r','model':'m','tenant':'t','eventTime':12}           | field 'schemaVersion' (4294967297) must be an integer
            null version         | {'schemaVersion':null,'id':'r','model':'m','tenant':'t','eventTime':12}                 | field 'schemaVersion' is missing
            version beats field  | {'id':7,'schemaVersion':3}                                                              | field 'schemaVersion' (3) is not supported (supported: 1)
            trailing garbage     | {'schemaVersion':1,'id':'r','model':'m','tenant':'t','eventTime':12} x                  | malformed JSON at column 71: Unrecognized token 'x'
            truncated            | {'schemaVersion':1,'id':'r','model':'m'                                                 | malformed JSON at column 40: Unexpected end-of-input
            array                | [1,2]                                                                                   | record must be a JSON object, not a JSON ARRAY
            """)
    void parse_invalidRequest_isRejectedWithReasonNamingFieldAndValue(String what, String json, String reason) {
        Parsed<InferenceRequest> parsed = requests.parse(json.replace('\'', '"'));

        assertThat(parsed.ok()).as(what).isFalse();
        assertThat(parsed.reason()).as(what).contains(reason.replace("''", "'"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            boolean as int      | {'schemaVersion':1,'serverId':'s','up':1,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[],'eventTime':1}                             | field 'up': Cannot coerce Integer value (1) to `boolean` value
            negative cache size | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[{'model':'a','bytes':-1}],'eventTime':1} | field 'cachedModels[0].bytes' (-1) must be >= 0
            nested missing      | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[{'model':'a'}],'eventTime':1}          | field 'cachedModels[0].bytes' is missing
            null cache entry    | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[null],'eventTime':1}                    | field 'cachedModels[0]' is missing (null)
            overflow to inf     | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1e400,'ongoingRequests':0,'cachedModels':[],'eventTime':1}                   | field 'opsPerSecond' (Infinity) must be finite and >= 0
            negative rate       | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':-2.5,'ongoingRequests':0,'cachedModels':[],'eventTime':1}                    | field 'opsPerSecond' (-2.5) must be finite and >= 0
            zero link           | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[],'linkBitsPerSecond':0,'eventTime':1} | field 'linkBitsPerSecond' (0.0) must be finite and > 0
            negative backlog    | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[],'eventTime':1,'backlogSeconds':-0.5} | field 'backlogSeconds' (-0.5) must be finite and >= 0
            negative ongoing    | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':-3,'cachedModels':[],'eventTime':1}                      | field 'ongoingRequests' (-3) must be >= 0
            model cached twice  | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[{'model':'a','bytes':1},{'model':'a','bytes':2}],'eventTime':1} | field 'cachedModels[1].model' ('a') is listed twice
            negative memory     | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[],'eventTime':1,'memoryBytes':-4}      | field 'memoryBytes' (-4.0) must be finite and > 0
            zero memory         | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[],'eventTime':1,'memoryBytes':0}       | field 'memoryBytes' (0.0) must be finite and > 0
            infinite memory     | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[],'eventTime':1,'memoryBytes':1e400}   | field 'memoryBytes' (Infinity) must be finite and > 0
            blank class         | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[],'eventTime':1,'serverClass':' '}     | field 'serverClass' (' ') must not be blank
            class as number     | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[],'eventTime':1,'serverClass':3}       | field 'serverClass': Cannot coerce Integer value (3)
            negative free       | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[],'eventTime':1,'memoryBytes':8,'freeMemoryBytes':-1} | field 'freeMemoryBytes' (-1.0) must be finite and >= 0
            infinite free       | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[],'eventTime':1,'freeMemoryBytes':1e400} | field 'freeMemoryBytes' (Infinity) must be finite and >= 0
            free above memory   | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[],'eventTime':1,'memoryBytes':8,'freeMemoryBytes':9} | field 'freeMemoryBytes' (9.0) must not be above field 'memoryBytes' (8.0)
            free as string      | {'schemaVersion':1,'serverId':'s','up':true,'opsPerSecond':1,'ongoingRequests':0,'cachedModels':[],'eventTime':1,'freeMemoryBytes':'x'} | field 'freeMemoryBytes': Cannot
            """)
    void parse_invalidTelemetry_isRejectedWithReasonNamingFieldAndValue(String what, String json, String reason) {
        assertRejected(JsonSerde.forTopic(Topics.CLUSTER_TELEMETRY).parse(json.replace('\'', '"')), what, reason);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            cycle           | {'schemaVersion':1,'model':'m','dag':{'name':'m','tasks':[{'id':'a','ops':1},{'id':'b','ops':1}],'edges':[{'from':'a','to':'b','bytes':1},{'from':'b','to':'a','bytes':1}]}} | field 'dag.edges' has a cycle through 2 of 2 tasks
            negative ops    | {'schemaVersion':1,'model':'m','dag':{'name':'m','tasks':[{'id':'a','ops':1},{'id':'b','ops':-1}],'edges':[]}}                                                          | field 'dag.tasks[1].ops' (-1.0) must be finite and >= 0
            dangling edge   | {'schemaVersion':1,'model':'m','dag':{'name':'m','tasks':[{'id':'a','ops':1}],'edges':[{'from':'a','to':'z','bytes':1}]}}                                              | field 'dag.edges[0].to' ('z') names no task
            duplicate task  | {'schemaVersion':1,'model':'m','dag':{'name':'m','tasks':[{'id':'a','ops':1},{'id':'a','ops':2}],'edges':[]}}                                                           | field 'dag.tasks[1].id' ('a') is not unique
            no tasks        | {'schemaVersion':1,'model':'m','dag':{'name':'m','tasks':[],'edges':[]}}                                                                                               | field 'dag.tasks' ([]) must hold at least one task
            self loop       | {'schemaVersion':1,'model':'m','dag':{'name':'m','tasks':[{'id':'a','ops':1}],'edges':[{'from':'a','to':'a','bytes':1}]}}                                              | field 'dag.edges[0]' (a->a) is a self-loop
            negative bytes  | {'schemaVersion':1,'model':'m','dag':{'name':'m','tasks':[{'id':'a','ops':1},{'id':'b','ops':1}],'edges':[{'from':'a','to':'b','bytes':-8}]}}                          | field 'dag.edges[0].bytes' (-8.0) must be finite and >= 0
            nested version  | {'dag':{'schemaVersion':1,'tasks':[{'schemaVersion':1}]},'model':'m','schemaVersion':5}                                                                                 | field 'schemaVersion' (5) is not supported (supported: 1)
            missing edges   | {'schemaVersion':1,'model':'m','dag':{'name':'m','tasks':[{'id':'a','ops':1}]}}                                                                                        | field 'dag.edges' is missing
            missing dag     | {'schemaVersion':1,'model':'m'}                                                                                                                                      | field 'dag' is missing
            negative size   | {'schemaVersion':1,'model':'m','dag':{'name':'m','tasks':[{'id':'a','ops':1}],'edges':[]},'sizeBytes':-1}                                                             | field 'sizeBytes' (-1.0) must be finite and >= 0
            infinite size   | {'schemaVersion':1,'model':'m','dag':{'name':'m','tasks':[{'id':'a','ops':1}],'edges':[]},'sizeBytes':1e400}                                                          | field 'sizeBytes' (Infinity) must be finite and >= 0
            negative task size | {'schemaVersion':1,'model':'m','dag':{'name':'m','tasks':[{'id':'a','ops':1,'sizeBytes':-2}],'edges':[]}}                                                          | field 'dag.tasks[0].sizeBytes' (-2.0) must be finite and >= 0
            task size of some  | {'schemaVersion':1,'model':'m','dag':{'name':'m','tasks':[{'id':'a','ops':1,'sizeBytes':2},{'id':'b','ops':1}],'edges':[]}}                                        | field 'dag.tasks[1].sizeBytes' (null) must be given for every task or for none
            """)
    void parse_invalidCatalogEntry_isRejectedWithReasonNamingFieldAndValue(String what, String json, String reason) {
        assertRejected(JsonSerde.forTopic(Topics.MODEL_CATALOG).parse(json.replace('\'', '"')), what, reason);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown type    | {'schemaVersion':1,'type':'NOPE','time':1,'details':{}}         | field 'type': Cannot deserialize value of type `dev.nona.topics.record.ControllerEventType` from String "NOPE"
            type as number  | {'schemaVersion':1,'type':3,'time':1,'details':{}}              | field 'type': Cannot deserialize value of type `dev.nona.topics.record.ControllerEventType` from number 3
            nested detail   | {'schemaVersion':1,'type':'FALLBACK','time':1,'details':{'a':[1]}} | field 'details.a' ([1]) must be a string, a number or a boolean
            """)
    void parse_invalidControllerEvent_isRejectedWithReasonNamingFieldAndValue(String what, String json, String reason) {
        assertRejected(JsonSerde.forTopic(Topics.CONTROLLER_EVENTS).parse(json.replace('\'', '"')), what, reason);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            table as string  | {'schemaVersion':1,'tableId':'x','version':1,'createdAt':1,'table':'str'} | field 'table' (a JSON STRING) must be a JSON object
            missing table    | {'schemaVersion':1,'tableId':'x','version':1,'createdAt':1}             | field 'table' is missing
            negative version | {'schemaVersion':1,'tableId':'x','version':-1,'createdAt':1,'table':{}}  | field 'version' (-1) must be >= 0
            """)
    void parse_invalidTable_isRejectedWithReasonNamingFieldAndValue(String what, String json, String reason) {
        assertRejected(JsonSerde.forTopic(Topics.PLACEMENT_TABLES).parse(json.replace('\'', '"')), what, reason);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            ok without parts   | {'schemaVersion':1,'requestId':'r','model':'m','tableVersion':3,'parts':[],'linkBytes':0,'status':'ok','completedAt':9,'observedJctSeconds':0.5}                                                                     | field 'parts' ([]) must hold at least one part when status is 'ok'
            unknown status     | {'schemaVersion':1,'requestId':'r','model':'m','tableVersion':3,'parts':[],'linkBytes':0,'status':'lost','completedAt':9,'observedJctSeconds':0.5}                                                                   | field 'status': Cannot deserialize value of type `dev.nona.topics.record.OutcomeStatus` from String "lost"
            upper-case status  | {'schemaVersion':1,'requestId':'r','model':'m','tableVersion':3,'parts':[],'linkBytes':0,'status':'OK','completedAt':9,'observedJctSeconds':0.5}                                                                     | field 'status': Cannot deserialize value of type `dev.nona.topics.record.OutcomeStatus` from String "OK"
            finish before start| {'schemaVersion':1,'requestId':'r','model':'m','tableVersion':3,'parts':[{'server':'s','startedAt':5,'finishedAt':4,'cold':false}],'linkBytes':0,'status':'ok','completedAt':9,'observedJctSeconds':0.5}             | field 'parts[0].finishedAt' (4) must be >= startedAt (5)
            negative link bytes| {'schemaVersion':1,'requestId':'r','model':'m','tableVersion':3,'parts':[{'server':'s','startedAt':1,'finishedAt':4,'cold':false}],'linkBytes':-1,'status':'ok','completedAt':9,'observedJctSeconds':0.5}            | field 'linkBytes' (-1) must be >= 0
            missing jct        | {'schemaVersion':1,'requestId':'r','model':'m','tableVersion':3,'parts':[{'server':'s','startedAt':1,'finishedAt':4,'cold':false}],'linkBytes':0,'status':'ok','completedAt':9}                                    | field 'observedJctSeconds' is missing
            negative jct       | {'schemaVersion':1,'requestId':'r','model':'m','tableVersion':3,'parts':[{'server':'s','startedAt':1,'finishedAt':4,'cold':false}],'linkBytes':0,'status':'ok','completedAt':9,'observedJctSeconds':-0.5}          | field 'observedJctSeconds' (-0.5) must be finite and >= 0
            blank part server  | {'schemaVersion':1,'requestId':'r','model':'m','tableVersion':3,'parts':[{'server':' ','startedAt':1,'finishedAt':4,'cold':false}],'linkBytes':0,'status':'ok','completedAt':9,'observedJctSeconds':0.5}            | field 'parts[0].server' (' ') must not be blank
            repeated task      | {'schemaVersion':1,'requestId':'r','model':'m','tableVersion':3,'parts':[{'server':'s','startedAt':1,'finishedAt':4,'cold':false,'tasks':['a','a']}],'linkBytes':0,'status':'ok','completedAt':9,'observedJctSeconds':0.5} | field 'parts[0].tasks[1]' ('a') is listed twice
            negative compute   | {'schemaVersion':1,'requestId':'r','model':'m','tableVersion':3,'parts':[{'server':'s','startedAt':1,'finishedAt':4,'cold':false,'computeSeconds':-1}],'linkBytes':0,'status':'ok','completedAt':9,'observedJctSeconds':0.5} | field 'parts[0].computeSeconds' (-1.0) must be finite and >= 0
            cold as string     | {'schemaVersion':1,'requestId':'r','model':'m','tableVersion':3,'parts':[{'server':'s','startedAt':1,'finishedAt':4,'cold':'no'}],'linkBytes':0,'status':'ok','completedAt':9,'observedJctSeconds':0.5}            | field 'parts[0].cold': Cannot coerce String value ("no") to `boolean` value
            blank reason       | {'schemaVersion':1,'requestId':'r','model':'m','tableVersion':3,'parts':[],'linkBytes':0,'status':'failed','completedAt':9,'observedJctSeconds':0.5,'reason':' '}                                                    | field 'reason' (' ') must not be blank
            """)
    void parse_invalidOutcome_isRejectedWithReasonNamingFieldAndValue(String what, String json, String reason) {
        assertRejected(JsonSerde.forTopic(Topics.PLACEMENT_OUTCOMES).parse(json.replace('\'', '"')), what, reason);
    }

    @Test
    void parse_timedOutOutcomeWithoutParts_isAccepted() {
        String json = "{'schemaVersion':1,'requestId':'r','model':'m','tableVersion':3,'parts':[],'linkBytes':0,"
                + "'status':'timeout','completedAt':9,'observedJctSeconds':30.0,'reason':'deadline 30 s'}";

        Parsed<PlacementOutcome> parsed = JsonSerde.forTopic(Topics.PLACEMENT_OUTCOMES).parse(json.replace('\'', '"'));

        assertThat(parsed.ok()).isTrue();
        assertThat(parsed.value().status()).isEqualTo(OutcomeStatus.TIMEOUT);
        assertThat(parsed.value().reason()).isEqualTo("deadline 30 s");
    }

    @Test
    void parse_decisionWithNoStages_isRejected() {
        String json = "{'schemaVersion':1,'requestId':'r','model':'m','tenant':'t','tableVersion':3,'fallback':false,"
                + "'stages':[],'predictedJctSeconds':0.5,'eventTime':1}";

        assertRejected(JsonSerde.forTopic(Topics.PLACEMENT_DECISIONS).parse(json.replace('\'', '"')), "no stages",
                "field 'stages' ([]) must hold at least one stage");
    }

    @Test
    void parse_overSizeLimit_isRejectedBeforeParsing_andExactlyAtLimitIsAccepted() {
        byte[] valid = VALID_REQUEST.replace('\'', '"').getBytes(StandardCharsets.UTF_8);
        JsonSerde<InferenceRequest> small = JsonSerde.forTopic(Topics.INFERENCE_REQUESTS, valid.length);
        byte[] big = new byte[valid.length + 1];
        Arrays.fill(big, (byte) '{');

        assertRejected(small.parse(big), "too big",
                "record size (" + big.length + " bytes) exceeds the limit (" + valid.length + " bytes)");
        assertThat(small.parse(valid).ok()).isTrue();
    }

    @Test
    void parse_nullValue_isRejectedAsTombstone() {
        assertRejected(requests.parse((byte[]) null), "null", "value is null");
    }

    @Test
    void parse_emptyValue_isRejectedAsEmpty() {
        assertRejected(requests.parse(new byte[0]), "empty", "record is empty (no JSON value)");
    }

    @Test
    void parse_invalidUtf8_isRejectedNotThrown() {
        byte[] bad = "{\"schemaVersion\":1,\"id\":\"\u0000\"}".getBytes(StandardCharsets.UTF_8);
        bad[bad.length - 3] = (byte) 0xC3;

        assertThat(requests.parse(bad).ok()).isFalse();
    }

    @Test
    void parse_hugeValueInReason_isClipped() {
        String longModel = "x".repeat(5_000);
        String json = VALID_REQUEST.replace('\'', '"').replace("\"eventTime\":12", "\"eventTime\":\"" + longModel + "\"");

        Parsed<InferenceRequest> parsed = requests.parse(json);

        assertThat(parsed.reason()).startsWith("field 'eventTime'").hasSizeLessThanOrEqualTo(Rejections.MAX_REASON_CHARS);
    }

    private static void assertRejected(Parsed<?> parsed, String what, String reason) {
        assertThat(parsed.ok()).as(what).isFalse();
        assertThat(parsed.reason()).as(what).contains(reason.replace("''", "'"));
    }
}
