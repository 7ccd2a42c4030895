package org.sperli.identity;

import java.security.PublicKey;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.security.interfaces.EdECPublicKey;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import javax.security.auth.x500.X500Principal;
import org.sperli.ErrorCode;
import org.sperli.SperliException;
import org.sperli.jobspec.HostSyntax;
import org.sperli.protocol.CanonicalDecimal;
import org.sperli.protocol.JobId;
import org.sperli.protocol.Limits;

/**
 * The identity checks of a peer certificate (transport and security; tables section 10), each refusing with H1611:
 * the subject is exactly one CN {@code sperli-<job id hex>-<rank>}, the rank decimal without leading zeros and below
 * the size; the key is Ed25519; the SAN names the host the dialing side dialed.
 *
 * <p>The subject is read in its RFC 2253 form, in which any further attribute, a multi-valued RDN or an escaped
 * character shows as a {@code ,}, {@code +} or {@code \}, so comparing that string with the one expected name is exact.
 */
public final class PeerIdentity {
    /** Start of every rank common name. */
    public static final String COMMON_NAME_PREFIX = "sperli-";
    /** Longest rank common name: "sperli-" + 32 hex digits + "-" + 4 digits. */
    public static final int MAX_COMMON_NAME_LENGTH = 44;

    private static final String CN_PREFIX = "CN=";
    private static final int GENERAL_NAME_DNS = 2;
    private static final int GENERAL_NAME_IP = 7;
    private static final String ED25519 = "Ed25519";
    private static final int MAX_SHOWN = 120;

    private PeerIdentity() {
    }

    /** The common name of rank {@code rank} of {@code job}. */
    public static String commonName(JobId job, int rank) {
        if (rank < 0 || rank >= Limits.MAX_SIZE) {
            throw new IllegalArgumentException("rank=" + rank + ", expected 0.." + (Limits.MAX_SIZE - 1));
        }
        return COMMON_NAME_PREFIX + job.hex() + "-" + rank;
    }

    /**
     * The rank the certificate names for {@code job}: its subject must be exactly one CN
     * {@code sperli-<job id hex>-<rank>}, the rank decimal without leading zeros and below {@code size}. H1611
     * otherwise.
     */
    public static int rankOf(X509Certificate certificate, JobId job, int size) {
        String subject = certificate.getSubjectX500Principal().getName(X500Principal.RFC2253);
        String prefix = CN_PREFIX + COMMON_NAME_PREFIX + job.hex() + "-";
        if (!subject.startsWith(prefix)) {
            throw refuse("subject=" + shown(subject) + ", expected exactly one CN " + COMMON_NAME_PREFIX + job.hex()
                    + "-<rank>");
        }
        String digits = subject.substring(prefix.length());
        int rank = decimalRank(digits);
        if (rank < 0) {
            throw refuse("subject=" + shown(subject) + ": rank part=" + shown(digits)
                    + ", expected decimal 0.." + (Limits.MAX_SIZE - 1) + " without leading zeros and nothing after it");
        }
        if (rank >= size) {
            throw refuse("subject names rank=" + rank + ", expected below size=" + size);
        }
        return rank;
    }

    /** Refuses (H1611) a certificate whose public key is not Ed25519. */
    public static void requireEd25519(X509Certificate certificate) {
        PublicKey key = certificate.getPublicKey();
        if (!(key instanceof EdECPublicKey edec) || !ED25519.equalsIgnoreCase(edec.getParams().getName())) {
            throw refuse("certificate key algorithm=" + key.getAlgorithm() + ", expected " + ED25519);
        }
    }

    /**
     * Refuses (H1611) a certificate whose subject alternative name is not exactly one entry naming
     * {@code dialedHost}: an iPAddress entry when the host is a dotted IPv4 address (never a dNSName that reads like
     * one), a dNSName entry otherwise (compared without regard to ASCII case; a wildcard matches nothing).
     */
    public static void checkSan(X509Certificate certificate, String dialedHost) {
        if (dialedHost == null || dialedHost.isEmpty()) {
            throw refuse("the dialed host is unknown, so the SAN cannot be checked");
        }
        boolean ip = HostSyntax.isIpv4(dialedHost);
        List<List<?>> entries = sanEntries(certificate);
        if (entries.size() != 1) {
            throw refuse("certificate has " + entries.size() + " SAN entries, expected exactly one naming "
                    + dialedHost);
        }
        List<?> entry = entries.get(0);
        int type = (Integer) entry.get(0);
        Object value = entry.get(1);
        int expectedType = ip ? GENERAL_NAME_IP : GENERAL_NAME_DNS;
        boolean matches = type == expectedType && value instanceof String name
                && (ip ? name.equals(dialedHost) : lowerAscii(name).equals(lowerAscii(dialedHost)));
        if (!matches) {
            throw refuse("certificate SAN=" + kind(type) + ":" + shown(String.valueOf(value)) + ", expected "
                    + kind(expectedType) + ":" + dialedHost);
        }
    }

    private static List<List<?>> sanEntries(X509Certificate certificate) {
        Collection<List<?>> names;
        try {
            names = certificate.getSubjectAlternativeNames();
        } catch (CertificateParsingException e) {
            throw new SperliException(ErrorCode.H1611, "certificate SAN does not parse", e);
        }
        return names == null ? List.of() : new ArrayList<>(names);
    }

    /** The rank of {@code digits}, or -1 when it is not decimal 0..4095 without leading zeros and nothing else. */
    private static int decimalRank(String digits) {
        return (int) CanonicalDecimal.parse(digits, Limits.MAX_SIZE - 1);
    }

    private static String kind(int type) {
        return switch (type) {
            case GENERAL_NAME_DNS -> "dNSName";
            case GENERAL_NAME_IP -> "iPAddress";
            default -> "type" + type;
        };
    }

    private static String lowerAscii(String s) {
        // Only ASCII letters fold: a Unicode mapping could turn a look-alike into a different, valid name.
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            out.append(c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c);
        }
        return out.toString();
    }

    /** Untrusted text for a message: printable ASCII only, cut to a bounded length. */
    static String shown(String s) {
        StringBuilder out = new StringBuilder(Math.min(s.length(), MAX_SHOWN) + 2).append('\'');
        for (int i = 0; i < s.length() && i < MAX_SHOWN; i++) {
            char c = s.charAt(i);
            out.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return out.append(s.length() > MAX_SHOWN ? "...'" : "'").toString();
    }

    private static SperliException refuse(String reason) {
        return new SperliException(ErrorCode.H1611, reason);
    }
}
