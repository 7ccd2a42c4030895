package org.sperli.jobspec;

import org.sperli.protocol.Limits;

/**
 * Host syntax of SPERLI v1 (tables section 7): what may stand in a host-list entry and in a join token.
 *
 * <p>A host is either a dotted IPv4 address (exactly four decimal octets 0..255 without leading zeros) or a DNS name
 * of lower-case LDH labels of 1..63 characters, 1..253 bytes in all, without a trailing dot. A string made only of
 * digits and dots is judged as an address and never as a name, so {@code 01.2.3.4} or {@code 1.2.3} cannot slip
 * through as a "name" that a resolver would read as an address. IPv6 ({@code :} or {@code [}) is not in v1.
 *
 * <p>Only the launcher is lenient: it calls {@link #normalize} on what the operator typed before it builds the job;
 * everything after that (descriptions, tokens, certificates) must already be in the strict form.
 */
public final class HostSyntax {
    /** Longest host in bytes. */
    public static final int MAX_LENGTH = Limits.MAX_HOST;
    /** Longest DNS label. */
    public static final int MAX_LABEL = 63;

    private HostSyntax() {
    }

    /** Whether {@code s} is exactly four decimal octets 0..255 separated by dots, none with a leading zero. */
    public static boolean isIpv4(String s) {
        if (s == null) {
            return false;
        }
        int n = s.length();
        int i = 0;
        for (int octet = 0; octet < 4; octet++) {
            if (octet > 0) {
                if (i >= n || s.charAt(i) != '.') {
                    return false;
                }
                i++;
            }
            int start = i;
            int value = 0;
            // At most three digits: bounds the value and refuses 0001 without overflow worries.
            while (i < n && i - start < 3 && isDigit(s.charAt(i))) {
                value = value * 10 + (s.charAt(i) - '0');
                i++;
            }
            int digits = i - start;
            if (digits == 0 || value > 255 || (digits > 1 && s.charAt(start) == '0')) {
                return false;
            }
        }
        return i == n;
    }

    /**
     * The first fault of {@code host} against the v1 host syntax, or {@code null} when it is a valid host. The fault
     * names the rule and, when short enough to be useful, the host with unprintable characters shown as {@code ?}.
     */
    public static String check(String host) {
        if (host == null) {
            return "host missing";
        }
        int length = host.length();
        if (length == 0) {
            return "host is empty, expected 1.." + MAX_LENGTH + " bytes";
        }
        if (length > MAX_LENGTH) {
            return "host length=" + length + ", expected 1.." + MAX_LENGTH + " bytes";
        }
        if (host.indexOf(':') >= 0 || host.indexOf('[') >= 0) {
            return "host=" + printable(host) + " looks like IPv6, which v1 does not carry";
        }
        if (digitsAndDotsOnly(host)) {
            return isIpv4(host) ? null
                    : "host=" + printable(host) + " is digits and dots but not a dotted IPv4 address"
                    + " (four octets 0..255, no leading zeros)";
        }
        if (host.charAt(length - 1) == '.') {
            return "host=" + printable(host) + " ends with a dot";
        }
        int start = 0;
        while (start <= length) {
            int end = host.indexOf('.', start);
            if (end < 0) {
                end = length;
            }
            String fault = labelFault(host, start, end);
            if (fault != null) {
                return "host=" + printable(host) + ": " + fault;
            }
            start = end + 1;
        }
        return null;
    }

    /**
     * The launcher's view of what an operator typed: ASCII letters lower-cased and one trailing dot removed. Only
     * ASCII is lower-cased: a Unicode case mapping can turn a non-ASCII look-alike (the Kelvin sign) into an ASCII
     * letter and so into a different, valid name; left alone, such a host stays refused by {@link #check}.
     */
    public static String normalize(String host) {
        StringBuilder out = new StringBuilder(host.length());
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            out.append(c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c);
        }
        int n = out.length();
        if (n > 0 && out.charAt(n - 1) == '.') {
            out.setLength(n - 1);
        }
        return out.toString();
    }

    private static String labelFault(String host, int start, int end) {
        int length = end - start;
        if (length == 0) {
            return "empty label at index " + start;
        }
        if (length > MAX_LABEL) {
            return "label at index " + start + " has " + length + " characters, maximum " + MAX_LABEL;
        }
        if (host.charAt(start) == '-' || host.charAt(end - 1) == '-') {
            return "label at index " + start + " starts or ends with a hyphen";
        }
        for (int i = start; i < end; i++) {
            char c = host.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                return "upper-case letter at index " + i + ", hosts are lower case";
            }
            if (!(c >= 'a' && c <= 'z') && !isDigit(c) && c != '-') {
                return "character 0x" + Integer.toHexString(c) + " at index " + i + " is not a letter, digit or hyphen";
            }
        }
        return null;
    }

    private static boolean digitsAndDotsOnly(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != '.' && !isDigit(c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** The host for a message: never a control character or a line break from untrusted input. */
    static String printable(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            out.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return out.append('"').toString();
    }
}
