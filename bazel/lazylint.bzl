"""lazylint as Bazel actions: an aspect and a lint test, in rules_lint's shape.

lazylint checks C, C++ and CUDA sources for CUDA lazy-loading hazards, with
facts that cross files (a launcher in one package timed from another, a
preload in a third, a header's renaming macros). Under Bazel that work is
split into cached actions:

- `LazylintSummarize`, one per source file: `lazylint summarize FILE -o DIR`
  writes the file's result before the project's facts and its parse summary
  into a tree artifact. Its inputs are the file, the binary and the
  configuration: a file's summary depends on nothing else (lazylint names
  entries by the file's bytes, the binary and the settings), so editing one
  file reruns one summarize action.
- `LazylintCheck`, one per target: `lazylint check` of the target's own files,
  with the files of its transitive dependencies as the project (context: read
  as text, never checked) and the summaries of all of them. It parses only the
  files whose result the dependencies' facts change. Outputs: a text report
  and a SARIF report, each with its exit code, in the `rules_lint_human` and
  `rules_lint_machine` output groups; with `patches`, the suggested fixes
  as a patch in `rules_lint_patch`.
- `LazylintValidate` (with `fail_on_violation`): a validation action that
  fails the build when the check's exit code says findings at `fail_on`.

Typical use, in `tools/lint/linters.bzl`:

```starlark
load("@lazylint_bazel//:lazylint.bzl", "lazylint_aspect", "lazylint_test")

lazylint = lazylint_aspect(
    binary = Label("//tools/lint:lazylint"),   # a prebuilt lazylint
    config = Label("//:.lazylint.yml"),         # optional
)
lazylint_test = lazylint_test(aspect = lazylint)
```

then `bazel build //... --aspects //tools/lint:linters.bzl%lazylint
--output_groups=rules_lint_human`.

Tested with Bazel 4.2.3; written against the Starlark API of current Bazel
too (7 to 9; read, not run): it loads no rule set and reads only `ctx.rule`
attributes (no CcInfo, which Bazel 9 moved to rules_cc), and every API it
uses (aspect, Args with param files and directory expansion,
declare_directory, OutputGroupInfo, the _validation group) is in both.
Shaped after aspect-build/rules_lint (f4a7958, 2026-08) and
erenon/bazel_clang_tidy (c4d35e0, 2026-01).
"""

LazylintInfo = provider(
    doc = "What lazylint knows of a target and its transitive dependencies.",
    fields = {
        "srcs": "depset of File: the C/C++/CUDA source files of the target and of its transitive dependencies (main repository only)",
        "summaries": "depset of File: the tree artifacts `lazylint summarize` wrote for those files",
    },
)

# File endings lazylint checks (README, "Usage"), and those it checks
# beside CUDA files; lazylint itself decides for the latter.
_EXTENSIONS = [
    "cu",
    "cuh",
    "cpp",
    "cc",
    "cxx",
    "c",
    "h",
    "hpp",
    "hh",
    "hxx",
    "inl",
    "cuinc",
    "inc",
    "impl",
    "ipp",
    "tcc",
    "cuinl",
]

DEFAULT_RULE_KINDS = [
    "cc_library",
    "cc_binary",
    "cc_test",
    # rules_cuda
    "cuda_library",
    "cuda_objects",
    "cuda_binary",
    "cuda_test",
]

# The attributes the aspect follows, and those whose files it checks.
_DEP_ATTRS = ["deps", "implementation_deps"]
_FILE_ATTRS = ["srcs", "hdrs", "textual_hdrs"]

_MNEMONIC = "AspectRulesLintLazylint"
_FAIL_ON = ["info", "warning", "error"]

def _should_visit(ctx, kinds):
    tags = ctx.rule.attr.tags
    if "no-lint" in tags or "no-lazylint" in tags:
        return False
    return kinds == ["*"] or ctx.rule.kind in kinds

def _own_files(ctx):
    """The target's own C/C++/CUDA source files, sorted by path."""
    files = {}
    for name in _FILE_ATTRS:
        for f in getattr(ctx.rule.files, name, []):
            if f.is_source and f.owner.workspace_name == "" and f.extension in _EXTENSIONS:
                files[f.path] = f
    return [files[p] for p in sorted(files.keys())]

def _config_args(ctx):
    if hasattr(ctx.attr, "_config"):
        return ["--config", ctx.file._config.path]
    return ["--no-config"]

def _summarize(ctx, target, src):
    """Declares `lazylint summarize` of one file; returns its tree artifact."""
    out = ctx.actions.declare_directory("{}.lazylint/{}.summary".format(target.label.name, src.short_path))
    args = ctx.actions.args()
    args.add("summarize")
    args.add(ctx.executable._lazylint)
    args.add("--")
    args.add_all(_config_args(ctx))
    args.add_all(ctx.attr._rule_args)
    args.add("--jobs", "1")
    args.add("--output", out.path)
    args.add(src)
    ctx.actions.run(
        executable = ctx.executable._wrapper,
        arguments = [args],
        inputs = [src] + ctx.files._configs,
        tools = [ctx.executable._lazylint],
        outputs = [out],
        mnemonic = "LazylintSummarize",
        progress_message = "Summarizing {} with lazylint".format(src.short_path),
    )
    return out

def _output(ctx, target, suffix):
    return ctx.actions.declare_file("{}.{}.{}".format(target.label.name, _MNEMONIC, suffix))

def _check(ctx, target, own, context, summaries):
    """Declares the target's check; returns its outputs."""
    outs = struct(
        text = _output(ctx, target, "out"),
        text_code = _output(ctx, target, "out.exit_code"),
        sarif = _output(ctx, target, "report"),
        sarif_code = _output(ctx, target, "report.exit_code"),
        patch = _output(ctx, target, "patch") if ctx.attr._patches else None,
    )
    args = ctx.actions.args()
    args.add("check")
    args.add(ctx.executable._lazylint)
    args.add_all([outs.text, outs.text_code, outs.sarif, outs.sarif_code])
    args.add(outs.patch or "-")

    # The files and folders, one a line, in a file: a large target's
    # context can pass the command line's limits.
    lists = ctx.actions.args()
    lists.set_param_file_format("multiline")
    lists.use_param_file("%s", use_always = True)
    lists.add_all(ctx.files._configs, format_each = "context=%s")
    lists.add_all(context, format_each = "context=%s")
    lists.add_all(own, format_each = "check=%s")
    lists.add_all(summaries, format_each = "summaries=%s", expand_directories = False)
    args.add("--")
    args.add_all(_config_args(ctx))
    args.add_all(ctx.attr._rule_args)
    args.add("--fail-on", ctx.attr._fail_on)
    args.add_all(ctx.attr._check_args)
    ctx.actions.run(
        executable = ctx.executable._wrapper,
        arguments = [args, lists],
        inputs = depset(ctx.files._configs, transitive = [context, summaries]),
        tools = [ctx.executable._lazylint],
        outputs = [outs.text, outs.text_code, outs.sarif, outs.sarif_code] + ([outs.patch] if outs.patch else []),
        mnemonic = "LazylintCheck",
        progress_message = "Checking {} with lazylint".format(target.label),
    )
    return outs

def _validate(ctx, target, outs):
    ok = _output(ctx, target, "ok")
    args = ctx.actions.args()
    args.add("validate")
    args.add_all([outs.text_code, outs.text, ok])
    ctx.actions.run(
        executable = ctx.executable._wrapper,
        arguments = [args],
        inputs = [outs.text_code, outs.text],
        outputs = [ok],
        mnemonic = "LazylintValidate",
        progress_message = "Validating lazylint's report of {}".format(target.label),
    )
    return ok

def _lazylint_aspect_impl(target, ctx):
    infos = []
    for name in _DEP_ATTRS:
        for dep in getattr(ctx.rule.attr, name, []):
            if LazylintInfo in dep:
                infos.append(dep[LazylintInfo])
    dep_srcs = depset(transitive = [i.srcs for i in infos])
    dep_summaries = depset(transitive = [i.summaries for i in infos])
    own = _own_files(ctx) if _should_visit(ctx, ctx.attr._rule_kinds) else []
    own_summaries = [_summarize(ctx, target, f) for f in own]
    info = LazylintInfo(
        srcs = depset(own, transitive = [dep_srcs]),
        summaries = depset(own_summaries, transitive = [dep_summaries]),
    )
    if not own:
        return [info]
    outs = _check(ctx, target, own, info.srcs, info.summaries)
    groups = {
        "rules_lint_human": depset([outs.text, outs.text_code]),
        "rules_lint_machine": depset([outs.sarif, outs.sarif_code]),
        "lazylint_summaries": depset(own_summaries),
    }
    if outs.patch:
        groups["rules_lint_patch"] = depset([outs.patch])
    if ctx.attr._fail_on_violation:
        groups["_validation"] = depset([_validate(ctx, target, outs)])
    return [info, OutputGroupInfo(**groups)]

def lazylint_aspect(
        binary,
        config = None,
        configs = [],
        fail_on = "warning",
        fail_on_violation = False,
        patches = False,
        rule_kinds = DEFAULT_RULE_KINDS,
        rule_args = [],
        args = []):
    """Makes a lazylint aspect.

    Args:
        binary: label of the lazylint executable: a prebuilt binary (a file,
            or a filegroup or native_binary around one); rules_go is not
            needed.
        config: label of the `.lazylint.yml` to use; None: no configuration
            (`--no-config`). Never found by looking up from the files: an
            action sees only its inputs.
        configs: labels of more files the configuration reads (`extends:`).
        fail_on: the lowest severity that makes the exit code 1 (`--fail-on`):
            info, warning or error.
        fail_on_violation: also fail the build, by a validation action, when
            a target's check exits non-zero (findings at `fail_on`, or files
            that could not be checked).
        patches: also write the suggested fixes of each target's findings as
            a patch (`lazylint check --diff`; `patch -p1` at the workspace's
            root applies it) in the `rules_lint_patch` output group. Costs a
            third lazylint run in each check.
        rule_kinds: the rule kinds whose srcs, hdrs and textual_hdrs are
            checked; ["*"] for every kind. Targets tagged "no-lint" or
            "no-lazylint" are skipped. Other targets are passed through: their
            dependencies still lend facts.
        rule_args: flags that change results, given to summarize and check
            alike (`--enable`, `--disable`, `--rule-option`, `--low-confidence`,
            `--report-unused-suppressions`): summaries are keyed on them.
        args: more flags for `lazylint check` alone.

    Returns:
        the aspect, to name in `--aspects` or in `lazylint_test(aspect = ...)`.
    """
    if fail_on not in _FAIL_ON:
        fail("lazylint_aspect: fail_on must be one of {}, not {}".format(_FAIL_ON, fail_on))
    attrs = {
        "_lazylint": attr.label(
            default = binary,
            executable = True,
            cfg = "exec",
            allow_files = True,
        ),
        "_wrapper": attr.label(
            default = Label("//:lazylint_action.sh"),
            executable = True,
            cfg = "exec",
            allow_single_file = True,
        ),
        "_configs": attr.label_list(default = ([config] if config else []) + configs, allow_files = True),
        "_fail_on": attr.string(default = fail_on),
        "_fail_on_violation": attr.bool(default = fail_on_violation),
        "_patches": attr.bool(default = patches),
        "_rule_kinds": attr.string_list(default = rule_kinds),
        "_rule_args": attr.string_list(default = rule_args),
        "_check_args": attr.string_list(default = args),
    }
    if config:
        # An aspect's private attribute needs a default: none without a config.
        attrs["_config"] = attr.label(default = config, allow_single_file = True)
    return aspect(
        implementation = _lazylint_aspect_impl,
        attr_aspects = _DEP_ATTRS,
        attrs = attrs,
    )

def _shell_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"

def _lazylint_test_impl(ctx):
    lines = []
    files = []
    for src in ctx.attr.srcs:
        if OutputGroupInfo not in src or not hasattr(src[OutputGroupInfo], "rules_lint_human"):
            continue
        human = src[OutputGroupInfo].rules_lint_human.to_list()
        files.extend(human)
        reports = [f for f in human if f.basename.endswith(".out")]
        codes = [f for f in human if f.basename.endswith(".out.exit_code")]
        for report, code in zip(reports, codes):
            lines.append("expect {} {}".format(_shell_quote(code.short_path), _shell_quote(report.short_path)))
    script = ctx.actions.declare_file(ctx.label.name + ".lazylint_test.sh")
    ctx.actions.write(
        output = script,
        content = "\n".join([
            "#!/usr/bin/env bash",
            "# Fails when a target's lazylint exit code is not {}; prints its report.".format(ctx.attr.expected_exit_code),
            "status=0",
            "expect() {",
            "  code=$(cat \"$1\")",
            "  if [ \"$code\" != {} ]; then".format(ctx.attr.expected_exit_code),
            "    echo \"lazylint exited $code, expected {}: $2\"".format(ctx.attr.expected_exit_code),
            "    cat \"$2\"",
            "    status=1",
            "  fi",
            "}",
        ] + lines + ["exit $status", ""]),
        is_executable = True,
    )
    return [DefaultInfo(executable = script, runfiles = ctx.runfiles(files = files))]

def lazylint_test(aspect):
    """Makes a test rule that fails when lazylint's exit code is not the expected one.

    The rule takes `srcs` (targets the aspect visits) and `expected_exit_code`
    (default 0: the test fails on findings at the aspect's `fail_on`, and on
    files that could not be checked, which exit 2). As rules_lint's lint_test.

    Args:
        aspect: an aspect made by lazylint_aspect.

    Returns:
        the test rule.
    """
    return rule(
        implementation = _lazylint_test_impl,
        attrs = {
            "srcs": attr.label_list(doc = "targets to check", aspects = [aspect]),
            "expected_exit_code": attr.int(default = 0, doc = "lazylint's expected exit code"),
        },
        test = True,
    )
