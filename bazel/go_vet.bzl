"""lazylint's cgo analyzers as a Bazel test: `go vet -vettool=lazylint-vet`.

Where rules_go is not available (it cannot be fetched offline, and nogo
needs it), this runs the analyzers the way the README does: the host's `go`
(on the test's PATH: `--test_env=PATH`) vets a Go module of the workspace
with a prebuilt lazylint-vet. The analyzers read no configuration file:
their options are go vet flags (`-LL001.threshold=0.8`), given here as
`vet_flags`, as nogo's `analyzer_flags` would give them.

```starlark
load("@lazylint_bazel//:go_vet.bzl", "lazylint_go_vet_test")

lazylint_go_vet_test(
    name = "vet",
    srcs = glob(["**/*.go"]) + ["go.mod"],
    vettool = "//tools/lint:lazylint-vet",
    lazylint = "//tools/lint:lazylint",   # optional: CUDA headers for cgo
)
```

Not hermetic: it uses the host's Go and C compiler, and GOCACHE when the
test's environment passes one (`--test_env=GOCACHE`), else a fresh one.
"""

def _shell_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"

def _lazylint_go_vet_test_impl(ctx):
    mods = [f for f in ctx.files.srcs if f.basename == "go.mod"]
    if len(mods) != 1:
        fail("lazylint_go_vet_test: srcs must hold exactly one go.mod, not {}".format(len(mods)))
    module = mods[0].short_path[:-len("/go.mod")] if "/" in mods[0].short_path else "."
    words = [
        ctx.executable._runner.short_path,
        ctx.executable.vettool.short_path,
        ctx.executable.lazylint.short_path if ctx.attr.lazylint else "",
        module,
        ",".join(sorted(ctx.attr.expect)),
        "--",
    ] + ctx.attr.vet_flags + ["--"] + ctx.attr.packages
    script = ctx.actions.declare_file(ctx.label.name + ".go_vet_test.sh")
    ctx.actions.write(
        output = script,
        content = "#!/usr/bin/env bash\nexec " + " ".join([_shell_quote(w) for w in words]) + "\n",
        is_executable = True,
    )
    files = ctx.files.srcs + [ctx.executable._runner, ctx.executable.vettool]
    if ctx.attr.lazylint:
        files.append(ctx.executable.lazylint)
    return [DefaultInfo(executable = script, runfiles = ctx.runfiles(files = files))]

lazylint_go_vet_test = rule(
    implementation = _lazylint_go_vet_test_impl,
    doc = "Runs go vet -vettool=lazylint-vet on packages of a Go module; passes when it reports exactly the rules in expect.",
    attrs = {
        "srcs": attr.label_list(allow_files = True, doc = "the module's files: go.mod and the .go files of the packages"),
        "vettool": attr.label(mandatory = True, executable = True, cfg = "target", allow_files = True, doc = "lazylint-vet, prebuilt"),
        "lazylint": attr.label(executable = True, cfg = "target", allow_files = True, doc = "lazylint, to write the minimal CUDA headers cgo needs (lazylint cgo-headers); unset: the system's"),
        "packages": attr.string_list(default = ["./..."], doc = "package patterns, relative to the module's folder"),
        "vet_flags": attr.string_list(doc = "analyzer options, as go vet flags: -LL001.threshold=0.8"),
        "expect": attr.string_list(doc = "the rule IDs go vet must report (each at least once); empty: none"),
        "_runner": attr.label(default = Label("//:go_vet_test.sh"), executable = True, cfg = "target", allow_single_file = True),
    },
    test = True,
)
