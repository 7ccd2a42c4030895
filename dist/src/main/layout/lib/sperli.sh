# shellcheck shell=bash
# Shell functions of the distribution's bin/sperli and bin/sperli-rankd, sourced by them and by scripts/sperli (a
# checkout), so that the launcher's JVM starts the same way from both.
#
# The JVM options every rank starts with, before SPERLI_RANKD_JAVA_OPTS (later options win): C2 waits for three times
# the default calls and loop turns, so that the short-lived hot code of a rank's start-up stays with C1, and C1's
# profiled compiles for five times, so that much of it stays interpreted (RankJvmDefaults says what each saved). The
# launcher gives local and staged ranks the same list (org.sperli.launcher.job.RankJvmDefaults; a test keeps them
# equal).
# shellcheck disable=SC2034 # used by the scripts that source this file
SPERLI_RANKD_DEFAULT_OPTS=(-XX:Tier3InvocationThreshold=1000 -XX:Tier3MinInvocationThreshold=500
  -XX:Tier3CompileThreshold=10000 -XX:Tier3BackEdgeThreshold=300000
  -XX:Tier4InvocationThreshold=15000 -XX:Tier4MinInvocationThreshold=1800
  -XX:Tier4CompileThreshold=45000 -XX:Tier4BackEdgeThreshold=120000)

# sperli_rankd_thp sets SPERLI_RANKD_THP_OPTS: huge pages behind the rank's heap where the kernel gives them on
# request only (mode madvise), as the launcher does for its local ranks (RankJvmDefaults.forThisHost): a rank that
# allocates its messages' arrays fast otherwise takes a page fault at every first touch of its young generation.
sperli_rankd_thp() {
  SPERLI_RANKD_THP_OPTS=()
  local mode=""
  { read -r mode < /sys/kernel/mm/transparent_hugepage/enabled; } 2>/dev/null || true
  case "$mode" in
    *"[madvise]"*) SPERLI_RANKD_THP_OPTS=(-XX:+UseTransparentHugePages) ;;
  esac
}

# sperli_jdk sets SPERLI_JDK to the home of the JDK that runs java here (JAVA_HOME, else java on the PATH), or
# returns 1. These functions set variables rather than print, and use the shell's own expansions rather than
# dirname, basename or tr: every command substitution and every such program is a process, and a dozen of them took
# 0.19 s of each `sperli` command before its JVM started (one readlink is left, which the shell cannot do).
sperli_jdk() {
  local java_path real
  if [ -n "${JAVA_HOME:-}" ]; then
    java_path="$JAVA_HOME/bin/java"
  else
    # hash finds java on the PATH as the shell would run it, and BASH_CMDS holds the answer: no subshell
    hash java 2>/dev/null || return 1
    java_path="${BASH_CMDS[java]}"
  fi
  [ -x "$java_path" ] && real="$(readlink -f "$java_path")" || return 1
  real="${real%/*}"
  SPERLI_JDK="${real%/*}"
}

# sperli_cds_base JAR sets SPERLI_CDS_BASE to the base path of JAR's class-data archives on this JDK: one directory
# per JDK in ${XDG_CACHE_HOME:-~/.cache}/sperli/cds, only the user's (a JVM executes what it maps), and one name per
# build of JAR (its size and modification time). It returns 1 where there can be none.
sperli_cds_base() {
  local jar="$1" cache_root cache name facts stamp root_mode root_owner cache_mode cache_owner
  sperli_jdk || return 1
  cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/sperli/cds"
  cache="$cache_root/${SPERLI_JDK//\//_}"
  [ -d "$cache" ] || mkdir -p "$cache" 2>/dev/null || return 1
  # One stat for the jar's build and both directories' mode and owner: directories that are not the user's alone
  # are made so (a chmod only then), and another user's are not used.
  facts="$(stat -c '%s-%Y %a %u' "$jar" "$cache_root" "$cache" 2>/dev/null)" || return 1
  { read -r stamp _; read -r _ root_mode root_owner; read -r _ cache_mode cache_owner; } <<< "$facts"
  [ "$root_owner" = "$EUID" ] && [ "$cache_owner" = "$EUID" ] || return 1
  if [ "$root_mode" != 700 ] || [ "$cache_mode" != 700 ]; then
    chmod 700 "$cache_root" "$cache" 2>/dev/null || return 1
  fi
  name="${jar##*/}"
  SPERLI_CDS_BASE="$cache/${name%.jar}-$stamp"
}

# sperli_exec JAR [sperli args...] replaces the shell with java running org.sperli.launcher.Main from JAR, the one
# entry of its class path.
#
# A launcher is short-lived and does little computing: one GC thread, small first heap, no C2 warm-up. JAVA_HOME
# selects the JDK; SPERLI_JAVA_OPTS adds JVM options after these defaults, so they win. The launcher has a class-data
# archive per JDK and build of JAR (sperli_cds_base), BASE.launcher.jsa, made after its first job
# (org.sperli.launcher.job.ClassDataArchive, which also makes its local ranks' BASE.jsa): until it exists the launcher
# writes the list of the classes it loaded beside it, and sperli.cds names the archives' base path.
sperli_exec() {
  local jar="$1"
  shift
  local java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
  # --enable-native-access: sperli --version loads the native crypto, which JDK 22 and later warn about otherwise.
  local defaults=(-XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Xms16m -Xshare:auto --enable-native-access=ALL-UNNAMED)
  local cds=() base
  if sperli_cds_base "$jar"; then
    base="$SPERLI_CDS_BASE"
    if [ -f "$base.launcher.jsa" ]; then
      cds=(-XX:SharedArchiveFile="$base.launcher.jsa" -Dsperli.cds="$base")
    else
      cds=(-XX:DumpLoadedClassList="$base.launcher.classlist" -Dsperli.cds="$base")
    fi
  fi
  # shellcheck disable=SC2086 # SPERLI_JAVA_OPTS is a list of options
  exec "$java" "${defaults[@]}" "${cds[@]}" ${SPERLI_JAVA_OPTS:-} -cp "$jar" org.sperli.launcher.Main "$@"
}

# sperli_rankd_cds JAR sets SPERLI_RANKD_CDS_OPTS, the class-data archive options of a rank daemon run from JAR on
# this JDK: the archive of this user's launcher where one ran here, else the ranks' own (BASE.rankd.jsa), else what
# the first rank to complete a job needs to make that one (org.sperli.rankd.RankArchive): before Java 25 the JVM's
# class list, named after its pid (this shell's, which exec keeps), from which a child JVM makes a static archive;
# from Java 25 on a record for a dynamic one, which needs the JDK's default CDS archives. On a host that runs only
# ranks this saves each rank about a quarter of its start. Nothing where SPERLI_RANKD_JAVA_OPTS sets CDS or AOT
# options of its own. The JVM's CDS warnings (a stale archive, say) are silenced: they would reach the job's output.
sperli_rankd_cds() {
  local base jdk feature quiet=(-Xlog:cds=off -Xlog:cds+dynamic=off)
  SPERLI_RANKD_CDS_OPTS=()
  case " ${SPERLI_RANKD_JAVA_OPTS:-} " in
    *-Xshare:* | *SharedArchiveFile* | *-XX:AOT* | *ArchiveClassesAtExit* | *DynamicDumpInfo* | *ClassList*)
      return 0 ;;
  esac
  sperli_cds_base "$1" || return 0
  base="$SPERLI_CDS_BASE"
  if [ -f "$base.jsa" ]; then
    SPERLI_RANKD_CDS_OPTS=(-XX:SharedArchiveFile="$base.jsa" "${quiet[@]}")
  elif [ -f "$base.rankd.jsa" ]; then
    SPERLI_RANKD_CDS_OPTS=(-XX:SharedArchiveFile="$base.rankd.jsa" "${quiet[@]}")
  else
    jdk="$SPERLI_JDK"
    feature="$(sed -n 's/^JAVA_VERSION="\([0-9][0-9]*\).*/\1/p' "$jdk/release" 2>/dev/null || true)"
    if [ "${feature:-0}" -lt 25 ]; then
      SPERLI_RANKD_CDS_OPTS=(-XX:DumpLoadedClassList="$base.rankd.rank-$$.classlist" -Dsperli.rankd.cds="$base.rankd"
        "${quiet[@]}")
    elif [ -f "$jdk/lib/server/classes.jsa" ] && [ -f "$jdk/lib/server/classes_nocoops.jsa" ]; then
      SPERLI_RANKD_CDS_OPTS=(-XX:+RecordDynamicDumpInfo -Dsperli.rankd.cds="$base.rankd" "${quiet[@]}")
    fi
  fi
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
