package org.sperli.launcher.job;

import java.util.ArrayList;
import java.util.List;
import org.sperli.launcher.exit.LauncherException;
import org.sperli.protocol.Limits;

/**
 * Slurm's hostlist expressions, as in {@code SLURM_JOB_NODELIST}: {@code node[01-04,07],gpu[1-2]} is node01, node02,
 * node03, node04, node07, gpu1, gpu2. A bracket holds numbers and ranges separated by commas; a range keeps the
 * zero padding of its lower bound; several brackets in one name multiply ({@code r[1-2]n[1-2]} is r1n1, r1n2, r2n1,
 * r2n2). Commas outside brackets separate names. {@code SLURM_TASKS_PER_NODE} ({@code 2(x3),1}) gives per-node counts.
 *
 * <p>Every expansion is bounded by the largest job (4096 ranks) before anything is built, so a hostile
 * {@code node[0-999999999]} is refused without allocating.
 */
public final class SlurmHostlist {
    /** Most names an expression may expand to: the largest job. */
    public static final int MAX_NAMES = Limits.MAX_SIZE;

    private SlurmHostlist() {
    }

    /** The names of {@code expression} in order; refuses (exit 2) a malformed one or one of more than 4096 names. */
    public static List<String> expand(String expression) {
        List<String> names = new ArrayList<>();
        for (String item : splitTopLevel(expression)) {
            if (item.isEmpty()) {
                throw bad(expression, "empty name");
            }
            expandItem(expression, item, 0, "", names);
        }
        if (names.isEmpty()) {
            throw bad(expression, "no names");
        }
        return names;
    }

    /**
     * {@code SLURM_TASKS_PER_NODE}: {@code 2(x3),1} is 2, 2, 2, 1. Refuses counts of 0 or over 4096 and totals over
     * 4096.
     */
    public static List<Integer> tasksPerNode(String value) {
        List<Integer> counts = new ArrayList<>();
        for (String part : value.split(",", -1)) {
            String p = part.strip();
            int repeat = 1;
            int paren = p.indexOf('(');
            if (paren >= 0) {
                if (!p.endsWith(")") || !p.startsWith("x", paren + 1)) {
                    throw badTasks(value, "'" + p + "' is not N or N(xM)");
                }
                repeat = tasksNumber(value, p.substring(paren + 2, p.length() - 1));
                p = p.substring(0, paren);
            }
            int count = tasksNumber(value, p);
            if (count == 0 || repeat == 0) {
                throw badTasks(value, "a count of 0");
            }
            if (counts.size() + (long) repeat > MAX_NAMES) {
                throw badTasks(value, "more than " + MAX_NAMES + " nodes");
            }
            for (int i = 0; i < repeat; i++) {
                counts.add(count);
            }
        }
        return counts;
    }

    private static void expandItem(String expression, String item, int from, String prefix, List<String> out) {
        int open = item.indexOf('[', from);
        int close = item.indexOf(']', from);
        if (open < 0) {
            if (close >= 0) {
                throw bad(expression, "']' without '[' in '" + item + "'");
            }
            add(expression, out, prefix + item.substring(from));
            return;
        }
        if (close < open) {
            throw bad(expression, "unbalanced brackets in '" + item + "'");
        }
        if (item.indexOf('[', open + 1) >= 0 && item.indexOf('[', open + 1) < close) {
            throw bad(expression, "nested '[' in '" + item + "'");
        }
        String head = prefix + item.substring(from, open);
        String body = item.substring(open + 1, close);
        if (body.isEmpty()) {
            throw bad(expression, "empty brackets in '" + item + "'");
        }
        for (String range : body.split(",", -1)) {
            int dash = range.indexOf('-');
            String lowText = dash < 0 ? range : range.substring(0, dash);
            String highText = dash < 0 ? range : range.substring(dash + 1);
            int low = number(expression, lowText);
            int high = number(expression, highText);
            if (high < low) {
                throw bad(expression, "range " + range + " runs backwards");
            }
            if ((long) high - low + 1 + out.size() > MAX_NAMES) {
                throw bad(expression, "more than " + MAX_NAMES + " names");
            }
            int width = lowText.length();
            for (int n = low; n <= high; n++) {
                String digits = Integer.toString(n);
                String padded = digits.length() >= width ? digits : "0".repeat(width - digits.length()) + digits;
                expandItem(expression, item, close + 1, head + padded, out);
            }
        }
    }

    private static void add(String expression, List<String> out, String name) {
        if (out.size() >= MAX_NAMES) {
            throw bad(expression, "more than " + MAX_NAMES + " names");
        }
        out.add(name);
    }

    private static List<String> splitTopLevel(String expression) {
        List<String> items = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < expression.length(); i++) {
            char c = expression.charAt(i);
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                depth--;
                if (depth < 0) {
                    throw bad(expression, "']' without '['");
                }
            } else if (c == ',' && depth == 0) {
                items.add(expression.substring(start, i).strip());
                start = i + 1;
            }
        }
        if (depth != 0) {
            throw bad(expression, "'[' without ']'");
        }
        items.add(expression.substring(start).strip());
        return items;
    }

    /** A decimal of 1..9 digits. */
    private static int number(String expression, String text) {
        if (text.isEmpty() || text.length() > 9) {
            throw bad(expression, "'" + text + "' is not a number of 1..9 digits");
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                throw bad(expression, "'" + text + "' is not a number");
            }
        }
        return Integer.parseInt(text);
    }

    private static int tasksNumber(String value, String text) {
        try {
            return number(value, text);
        } catch (LauncherException e) {
            throw badTasks(value, "'" + text + "' is not a number of 1..9 digits");
        }
    }

    /** A refusal of SLURM_TASKS_PER_NODE, named as such (it is not the host list). */
    private static LauncherException badTasks(String value, String what) {
        String shown = value.length() > 80 ? value.substring(0, 80) + "..." : value;
        return LauncherException.usage("SLURM_TASKS_PER_NODE '" + shown + "': " + what);
    }

    private static LauncherException bad(String expression, String what) {
        String shown = expression.length() > 80 ? expression.substring(0, 80) + "..." : expression;
        return LauncherException.usage("hostlist '" + shown + "': " + what);
    }
}
