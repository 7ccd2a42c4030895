# Shell functions of the distribution's bin/sperli and bin/sperli-rankd, sourced by them and by scripts/sperli (a
# checkout), so that the launcher's JVM starts the same way from both.
#
# The JVM options every rank starts with, before SPERLI_RANKD_JAVA_OPTS (later options win): C2 waits for ten times
# the default calls and loop turns, so that the short-lived hot code of a rank's start-up stays with C1. The launcher
# gives local and staged ranks the same list (org.sperli.launcher.job.RankJvmDefaults; a test keeps them equal).
# shellcheck disable=SC2034 # used by the scripts that source this file
SPERLI_RANKD_DEFAULT_OPTS=(-XX:Tier4InvocationThreshold=50000 -XX:Tier4MinInvocationThreshold=6000
  -XX:Tier4CompileThreshold=150000 -XX:Tier4BackEdgeThreshold=400000)

# sperli_exec JAR [sperli args...] replaces the shell with java running org.sperli.launcher.Main from JAR, the one
# entry of its class path.
#
# A launcher is short-lived and does little computing: one GC thread, small first heap, no C2 warm-up. JAVA_HOME
# selects the JDK; SPERLI_JAVA_OPTS adds JVM options after these defaults, so they win. The launcher and its local
# ranks share a class-data archive per JDK and build of JAR in ${XDG_CACHE_HOME:-~/.cache}/sperli/cds, made after
# the first job with local ranks (org.sperli.launcher.job.ClassDataArchive): until it exists the launcher writes the
# list of the classes it loaded beside it, and sperli.cds names the archive's base path.
sperli_exec() {
  local jar="$1"
  shift
  local java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
  # --enable-native-access: sperli --version loads the native crypto, which JDK 22 and later warn about otherwise.
  local defaults=(-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xms16m -Xshare:auto --enable-native-access=ALL-UNNAMED)
  local cds=() java_path real cache_root cache base
  java_path="$(command -v "$java" 2>/dev/null || true)"
  if [ -n "$java_path" ] && real="$(readlink -f "$java_path" 2>/dev/null)"; then
    cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/sperli/cds"
    cache="$cache_root/$(dirname "$(dirname "$real")" | tr '/' '_')"
    if mkdir -p "$cache" 2>/dev/null && chmod 700 "$cache_root" "$cache" 2>/dev/null; then
      base="$cache/$(basename "$jar" .jar)-$(stat -c %s-%Y "$jar")"
      if [ -f "$base.jsa" ]; then
        cds=(-XX:SharedArchiveFile="$base.jsa" -Dsperli.cds="$base")
      else
        cds=(-XX:DumpLoadedClassList="$base.launcher.classlist" -Dsperli.cds="$base")
      fi
    fi
  fi
  # shellcheck disable=SC2086 # SPERLI_JAVA_OPTS is a list of options
  exec "$java" "${defaults[@]}" "${cds[@]}" ${SPERLI_JAVA_OPTS:-} -cp "$jar" org.sperli.launcher.Main "$@"
}

# sperli_dist_jar ROOT: the one launcher jar of the distribution unpacked at ROOT, or one line on stderr and exit 2.
sperli_dist_jar() {
  local jars=() f
  for f in "$1"/lib/sperli-launcher-*-all.jar; do
    if [ -f "$f" ]; then jars+=("$f"); fi
  done
  if [ "${#jars[@]}" -ne 1 ]; then
    echo "sperli: expected one lib/sperli-launcher-VERSION-all.jar in $1, found ${#jars[@]}: unpack the tarball again" >&2
    exit 2
  fi
  printf '%s\n' "${jars[0]}"
}
