package dev.nona.controller;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.description.Formatter;
import org.apache.flink.configuration.description.TextElement;
import org.junit.jupiter.api.Test;

/**
 * Checks the configuration tables of {@code docs/controller.md} (every key, its default and its meaning) and of the
 * README (keys and the defaults it gives) against {@link ControllerOptions}. Each failure names the key and what
 * differs; all differences are reported at once.
 */
final class ControllerOptionsDocsTest {
    private static final Path REPO = Path.of(System.getProperty("basedir", "")).toAbsolutePath().getParent();
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    @Test
    void all_holdsEveryOptionDeclared() throws IllegalAccessException {
        List<ConfigOption<?>> declared = new ArrayList<>();
        for (Field f : ControllerOptions.class.getFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == ConfigOption.class) {
                declared.add((ConfigOption<?>) f.get(null));
            }
        }
        assertThat(ControllerOptions.ALL).as("ControllerOptions.ALL").containsExactlyInAnyOrderElementsOf(declared);
        assertThat(ControllerOptions.KEYS).as("keys are unique").hasSize(ControllerOptions.ALL.size());
    }

    @Test
    void controllerDocs_tableListsEveryOptionWithItsDefaultAndMeaning() throws IOException {
        Map<String, Row> rows = rowsByKey(table(REPO.resolve("docs/controller.md")));
        List<String> problems = new ArrayList<>();
        for (ConfigOption<?> option : ControllerOptions.ALL) {
            Row row = rows.get(option.key());
            if (row == null) {
                problems.add(option.key() + ": no row in docs/controller.md (default " + documented(option) + ")");
                continue;
            }
            String defaultProblem = defaultProblem(option, row.defaultCell());
            if (defaultProblem != null) {
                problems.add(option.key() + " (line " + row.line() + "): " + defaultProblem);
            }
            String description = new MarkdownFormatter().format(option.description());
            if (!row.meaning().equals(description)) {
                problems.add(option.key() + " (line " + row.line() + "): the meaning differs from the option's "
                        + "description\n    docs: " + row.meaning() + "\n    code: " + description);
            }
        }
        assertThat(problems).as("docs/controller.md against ControllerOptions").isEmpty();
    }

    @Test
    void controllerDocs_tableListsNoKeyThatIsNotAnOption() throws IOException {
        List<String> problems = new ArrayList<>();
        Map<String, Integer> seen = new HashMap<>();
        for (Row row : table(REPO.resolve("docs/controller.md"))) {
            for (String key : row.keys()) {
                if (!ControllerOptions.KEYS.contains(key) && ControllerOptions.passThrough(key) == null) {
                    problems.add(key + " (line " + row.line() + "): not a ControllerOptions key nor a pass-through");
                }
                Integer earlier = seen.put(key, row.line());
                if (earlier != null) {
                    problems.add(key + " (line " + row.line() + "): listed again (first on line " + earlier + ")");
                }
            }
        }
        assertThat(problems).as("keys of docs/controller.md").isEmpty();
    }

    /** The README's table is shorter: its keys must exist, and the defaults it gives (one per key) must hold. */
    @Test
    void readme_tableKeysAndDefaultsHold() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Row row : table(REPO.resolve("README.md"))) {
            List<String> defaults = codeSpans(row.defaultCell());
            for (int i = 0; i < row.keys().size(); i++) {
                String key = row.keys().get(i);
                if (key.endsWith(".*") && ControllerOptions.passThrough(key) == null) {
                    String prefix = key.substring(0, key.length() - 1);
                    if (ControllerOptions.KEYS.stream().noneMatch(k -> k.startsWith(prefix))) {
                        problems.add(key + " (README line " + row.line() + "): no ControllerOptions key matches");
                    }
                } else if (!ControllerOptions.KEYS.contains(key)) {
                    if (ControllerOptions.passThrough(key) == null) {
                        problems.add(key + " (README line " + row.line() + "): not a ControllerOptions key");
                    }
                } else if (defaults.size() == row.keys().size()) {
                    ConfigOption<?> option = option(key);
                    String problem = valueProblem(option, defaults.get(i));
                    if (problem != null) {
                        problems.add(key + " (README line " + row.line() + "): " + problem);
                    }
                }
            }
        }
        assertThat(problems).as("README.md's configuration table against ControllerOptions").isEmpty();
    }

    /**
     * What is wrong with a documented default, or {@code null}. The docs write a default as a code span, parsed
     * with the option's own parser so that {@code 60s} matches a default of one minute; "empty ..." for the empty
     * string; "— ..." for an option without default.
     */
    private static String defaultProblem(ConfigOption<?> option, String cell) {
        if (!option.hasDefaultValue()) {
            return cell.startsWith("—") ? null : "the docs give a default (" + cell + "), the option has none";
        }
        if ("".equals(option.defaultValue())) {
            return cell.startsWith("empty") ? null : "the default is empty, the docs say " + cell;
        }
        List<String> spans = codeSpans(cell);
        if (spans.size() != 1 || !cell.equals("`" + spans.get(0) + "`")) {
            return "the default cell (" + cell + ") is not one code span; the option's default is "
                    + documented(option);
        }
        return valueProblem(option, spans.get(0));
    }

    private static String valueProblem(ConfigOption<?> option, String text) {
        Object parsed;
        try {
            parsed = Configuration.fromMap(Map.of(option.key(), text)).get(option);
        } catch (IllegalArgumentException e) {
            return "the documented default `" + text + "` does not parse (" + e.getMessage() + ")";
        }
        return Objects.equals(parsed, option.defaultValue()) ? null
                : "the docs give the default `" + text + "` (" + parsed + "), ControllerOptions has "
                        + option.defaultValue();
    }

    private static String documented(ConfigOption<?> option) {
        return option.hasDefaultValue() ? String.valueOf(option.defaultValue()) : "none";
    }

    private static ConfigOption<?> option(String key) {
        return ControllerOptions.ALL.stream().filter(o -> o.key().equals(key)).findFirst().orElseThrow();
    }

    private static Map<String, Row> rowsByKey(List<Row> rows) {
        Map<String, Row> byKey = new HashMap<>();
        for (Row row : rows) {
            row.keys().forEach(k -> byKey.putIfAbsent(k, row));
        }
        return byKey;
    }

    /** The first {@code | key | default | meaning |} table of {@code file}. */
    private static List<Row> table(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        int header = lines.indexOf("| key | default | meaning |");
        assertThat(header).as("a '| key | default | meaning |' table in " + file).isNotNegative();
        List<Row> rows = new ArrayList<>();
        for (int i = header + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            String line = lines.get(i).strip();
            String[] cells = line.substring(1, line.length() - 1).split(" \\| ", 3);
            assertThat(cells).as(file.getFileName() + " line " + (i + 1) + " has three cells").hasSize(3);
            rows.add(new Row(codeSpans(cells[0]), cells[1].strip(), cells[2].strip(), i + 1));
        }
        assertThat(rows).as("rows of the table in " + file).isNotEmpty();
        return rows;
    }

    private static List<String> codeSpans(String cell) {
        List<String> spans = new ArrayList<>();
        Matcher m = CODE.matcher(cell);
        while (m.find()) {
            spans.add(m.group(1));
        }
        return spans;
    }

    /** One row of a configuration table; {@code line} is 1-based. */
    private record Row(List<String> keys, String defaultCell, String meaning, int line) {}

    /** Renders an option's description as the Markdown of the docs (code in backticks). */
    private static final class MarkdownFormatter extends Formatter {
        @Override
        protected void formatLink(StringBuilder state, String link, String description) {
            state.append('[').append(description).append("](").append(link).append(')');
        }

        @Override
        protected void formatLineBreak(StringBuilder state) {
            state.append("<br>");
        }

        @Override
        protected void formatText(StringBuilder state, String format, String[] elements,
                EnumSet<TextElement.TextStyle> styles) {
            String quote = styles.contains(TextElement.TextStyle.CODE) ? "`" : "";
            state.append(quote).append(String.format(format, (Object[]) elements)).append(quote);
        }

        @Override
        protected void formatList(StringBuilder state, String[] entries) {
            state.append(String.join("; ", entries));
        }

        @Override
        protected Formatter newInstance() {
            return new MarkdownFormatter();
        }
    }
}
