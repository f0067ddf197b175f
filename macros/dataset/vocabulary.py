"""Loading stage: the closed vocabularies of the data, each value's wording, order and behaviour in one place.

Every enumerated field (an item's kind, effect, area and status, a source's tier, a dispute's
verdict, a companion library, an operating system) is declared here twice, side by side: as a
`Literal` type, which the model validates against and the JSON Schema lists, and as a
`Vocabulary` of `Term`s, in reading order, that says how each value is shown: its label, the verb
used in sentences ("deprecated in 2.10"), the CSS class that styles it, and its roles (which kinds
are changes, which effect is silent...). A test checks that both halves list the same values, so a
new value cannot reach a page without its wording. Code asks this module, never a literal: the
named subsets below (`CHANGE_KINDS`, `SCANNED_KINDS`...) are computed from the roles, and
tests/test_vocabulary_literals.py fails when a value is spelled elsewhere in macros/.

Wheel variants are open (cu128, rocm7.1: the data names new ones), so they are described by their
families (`VARIANT_FAMILIES`): the pattern a variant of each family matches, in the order the
guide's controls list them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal, get_args


@dataclass(frozen=True)
class Term:
    value: str  # as written in the data
    label: str  # as shown on a page
    verb: str  # in a sentence: "<thing> <verb> in 2.10"
    style: str  # CSS class
    # An effect that gives no sign (no error, no warning): guides list these first, apart.
    silent: bool = False
    # What the code does with the value (the names are this module's, see the subsets below).
    roles: tuple[str, ...] = ()


@dataclass(frozen=True)
class Vocabulary:
    """The terms of one field, in the order pages list them."""

    field: str
    terms: tuple[Term, ...]

    def __iter__(self) -> Iterator[Term]:
        return iter(self.terms)

    def __getitem__(self, value: str) -> Term:
        for term in self.terms:
            if term.value == value:
                return term
        raise KeyError(f"{value!r} is not a {self.field} (known: {', '.join(self.values)})")

    @property
    def values(self) -> tuple[str, ...]:
        return tuple(term.value for term in self.terms)

    def rank(self, value: str) -> int:
        """Position in reading order (0 first): a sort key."""
        return self.values.index(value)

    def label(self, value: str) -> str:
        return self[value].label

    @property
    def silent(self) -> frozenset[str]:
        """The values whose terms give no sign (for effects: the silent behaviour changes)."""
        return frozenset(term.value for term in self.terms if term.silent)

    def having(self, role: str) -> frozenset[str]:
        """The values that play this role; a role no term has is a mistake in this module."""
        found = frozenset(term.value for term in self.terms if role in term.roles)
        if not found:
            raise KeyError(f"no {self.field} has the role {role!r}")
        return found

    def the_one(self, role: str) -> str:
        """The single value that plays this role (the kind that announces a removal...)."""
        (value,) = self.having(role)
        return value


Kind = Literal["highlight", "feature", "improvement", "breaking", "deprecation", "removal", "platform", "regression"]
# Roles of kinds: "change" (changes what existing code or installs do; must say how it hits),
# "feature" (something new), "action" (must say what to do), "code" (the scanner looks for its
# symbols; the notes' incompatible-changes and deprecations sections give it), "retires" (puts an
# API on the lifecycle table), "announces" (a deprecation: a later item completes it), "ends"
# (completes a deprecation), "headline", "regression", "home" (counted on the home page's list),
# "weighed" (the reader must act on it: its search entry weighs more, render/search_rank.py).
KINDS = Vocabulary(
    "kind",
    (
        Term("highlight", "Highlight", "introduced", "atlas-kind-highlight", roles=("feature", "headline", "home")),
        Term(
            "breaking",
            "Breaking change",
            "changed",
            "atlas-kind-breaking",
            roles=("change", "action", "code", "ends", "home", "weighed"),
        ),
        Term(
            "deprecation",
            "Deprecation",
            "deprecated",
            "atlas-kind-deprecation",
            roles=("change", "code", "retires", "announces", "home", "weighed"),
        ),
        Term(
            "removal",
            "Removal",
            "removed",
            "atlas-kind-removal",
            roles=("change", "action", "code", "retires", "removes", "ends", "home", "weighed"),
        ),
        Term("platform", "Platform change", "changed", "atlas-kind-platform", roles=("change", "ends")),
        Term("feature", "New feature", "introduced", "atlas-kind-feature", roles=("feature",)),
        Term("improvement", "Improvement", "improved", "atlas-kind-improvement", roles=("feature",)),
        Term("regression", "Known regression", "regressed", "atlas-kind-regression", roles=("regression", "weighed")),
    ),
)
#: Kinds that change what a user's existing code or install does; they must say how they hit.
CHANGE_KINDS: frozenset[str] = KINDS.having("change")
FEATURE_KINDS: frozenset[str] = KINDS.having("feature")
#: Kinds that must say what to do (`action`).
ACTION_KINDS: frozenset[str] = KINDS.having("action")
#: Kinds whose symbols the scanner reports (the changes that can break code), and the kinds the
#: notes' "Backwards Incompatible Changes" and "Deprecations" sections give.
CODE_KINDS: frozenset[str] = KINDS.having("code")
#: Kinds that put an API on the lifecycle table (deprecated or removed).
RETIRING_KINDS: frozenset[str] = KINDS.having("retires")
#: Kinds that complete a deprecation (its removal, a break, a platform drop).
ENDING_KINDS: frozenset[str] = KINDS.having("ends")
#: The kind that announces a later change (warns first).
DEPRECATION: str = KINDS.the_one("announces")
#: The kind that removes an API (nothing may deprecate it afterwards).
REMOVAL: str = KINDS.the_one("removes")
HEADLINE: str = KINDS.the_one("headline")
REGRESSION: str = KINDS.the_one("regression")
#: Kinds the home page counts per release, in reading order.
SEARCH_WEIGHED_KINDS: frozenset[str] = KINDS.having("weighed")
HOME_KINDS: tuple[str, ...] = tuple(value for value in KINDS.values if value in KINDS.having("home"))

#: A release page's sections in reading order: (anchor, heading, kinds shown there). Every kind
#: has one section (a test checks); the anchors are published permalinks.
KIND_SECTIONS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("highlights", "Highlights", ("highlight",)),
    ("breaking-changes", "Breaking changes", ("breaking",)),
    ("deprecations", "Deprecations", ("deprecation",)),
    ("removals", "Removals", ("removal",)),
    ("platform-changes", "Platform changes", ("platform",)),
    ("new-features", "New features and improvements", ("feature", "improvement")),
    ("known-regressions", "Known regressions", ("regression",)),
)

Effect = Literal["error", "warning", "silent", "performance", "packaging"]
#: Silent changes hurt most: they come first.
EFFECTS = Vocabulary(
    "effect",
    (
        Term(
            "silent",
            "silent behaviour change",
            "behaves differently without a sign",
            "atlas-effect-silent",
            silent=True,
        ),
        Term("error", "raises an error", "raises an error", "atlas-effect-error"),
        Term("warning", "warns", "warns", "atlas-effect-warning"),
        Term(
            "performance",
            "changes performance",
            "runs at a different speed",
            "atlas-effect-performance",
            roles=("not-in-code",),
        ),
        Term(
            "packaging",
            "packaging / install",
            "installs differently",
            "atlas-effect-packaging",
            roles=("not-in-code", "install"),
        ),
    ),
)
#: Effects no line of Python can act on (speed, how wheels are built): the scanner skips them.
UNSCANNED_EFFECTS: frozenset[str] = EFFECTS.having("not-in-code")
#: The effect of changes to how PyTorch installs: the guide gives them their own section, and a
#: change without an effect sorts with them.
INSTALL_EFFECT: str = EFFECTS.the_one("install")

Status = Literal["stable", "beta", "prototype", "api-unstable"]
STATUSES = Vocabulary(
    "status",
    (
        Term("stable", "Stable", "is stable", "atlas-status-stable"),
        Term("beta", "Beta", "is in beta", "atlas-status-beta"),
        Term("prototype", "Prototype", "is a prototype", "atlas-status-prototype"),
        Term("api-unstable", "API-unstable", "has an unstable API", "atlas-status-api-unstable"),
    ),
)

Tier = Literal["official-notes", "official-blog", "upstream", "mirror", "community", "secondary", "ai-generated"]
#: Most trusted first. Disputes are resolved towards the earlier tier.
TIERS = Vocabulary(
    "tier",
    (
        Term("official-notes", "official release notes", "state", "atlas-tier-official-notes"),
        Term("official-blog", "official blog", "states", "atlas-tier-official-blog"),
        # The maintainers' own primary texts that are not release notes: pull requests, reference docs.
        Term("upstream", "upstream pull request or reference docs", "documents", "atlas-tier-upstream"),
        Term("mirror", "faithful mirror", "repeats", "atlas-tier-mirror"),
        Term("community", "community table", "lists", "atlas-tier-community"),
        Term("secondary", "secondary article", "reports", "atlas-tier-secondary"),
        Term("ai-generated", "AI-generated article", "claims", "atlas-tier-ai-generated"),
    ),
)

Verdict = Literal["rejected", "corrected", "unresolved"]
VERDICTS = Vocabulary(
    "verdict",
    (
        Term("rejected", "Rejected", "rejected", "atlas-verdict-rejected", roles=("false",)),
        Term("corrected", "Corrected", "corrected", "atlas-verdict-corrected"),
        Term("unresolved", "Unresolved", "left open", "atlas-verdict-unresolved"),
    ),
)

#: The one definition of "felt" every ledger is decided against (data/README.md, "Ledgers").
#: A ledger that was read again against it says so: `reread: {definition: felt-3}`.
FELT_DEFINITION_ID = "felt-3"
FELT_DEFINITION = (
    "Code or an install that worked on A behaves differently on B: a removed or renamed public "
    "name; a new error; a new warning on ordinary code; a changed default (argument, flag, backend, "
    "dtype, environment variable); a changed result (values, dtype, shape), including bug fixes "
    "that change what code which ran without error returns (wrong results, NaN, corruption, "
    "precision); a platform or packaging change; a known regression. A change that reaches only "
    "people who build PyTorch from source is felt for the source variant."
)

NotFeltReason = Literal["internal", "ci", "docs", "new-api", "faster", "fix", "developer", "duplicate", "reverted"]
#: Why an entry of the notes needs no item (a ledger's `decision: "not-felt: <reason>"`).
NOT_FELT_REASONS = Vocabulary(
    "not-felt reason",
    (
        Term("internal", "internal refactor or private API", "is internal", "atlas-notfelt-internal"),
        Term("ci", "CI, tests or PyTorch's own build", "is CI", "atlas-notfelt-ci"),
        Term("docs", "documentation only", "is documentation", "atlas-notfelt-docs"),
        Term("new-api", "new and opt-in; nothing existing changes", "is opt-in", "atlas-notfelt-new-api"),
        Term("faster", "faster or leaner, same behaviour", "is faster", "atlas-notfelt-faster"),
        Term("fix", "a crash or error fixed; results unchanged", "is fixed", "atlas-notfelt-fix"),
        Term("developer", "only for developers of PyTorch or backends", "is for developers", "atlas-notfelt-developer"),
        Term("duplicate", "the same change as another entry", "is a duplicate", "atlas-notfelt-duplicate"),
        Term("reverted", "reverted or not in the wheels", "was reverted", "atlas-notfelt-reverted"),
    ),
)

Area = Literal[
    "autograd",
    "build",
    "compiler",
    "cpp",
    "cpu",
    "cuda",
    "data",
    "distributed",
    "export",
    "jit",
    "linalg",
    "mps",
    "nn",
    "onnx",
    "optim",
    "packaging",
    "profiler",
    "python",
    "quantization",
    "rocm",
    "tensor",
    "xpu",
]
#: The part of PyTorch an item concerns; guides head their groups with the label.
AREA_TERMS = Vocabulary(
    "area",
    (
        Term("autograd", "Autograd", "changed", "atlas-area-autograd"),
        Term("build", "Building PyTorch", "changed", "atlas-area-build"),
        Term("compiler", "torch.compile", "changed", "atlas-area-compiler"),
        Term("cpp", "C++ API and extensions", "changed", "atlas-area-cpp"),
        Term("cpu", "CPU", "changed", "atlas-area-cpu"),
        Term("cuda", "CUDA", "changed", "atlas-area-cuda"),
        Term("data", "Data loading", "changed", "atlas-area-data"),
        Term("distributed", "Distributed", "changed", "atlas-area-distributed"),
        Term("export", "torch.export", "changed", "atlas-area-export"),
        Term("jit", "TorchScript (JIT)", "changed", "atlas-area-jit"),
        Term("linalg", "Linear algebra", "changed", "atlas-area-linalg"),
        Term("mps", "Apple MPS", "changed", "atlas-area-mps"),
        Term("nn", "torch.nn", "changed", "atlas-area-nn"),
        Term("onnx", "ONNX export", "changed", "atlas-area-onnx"),
        Term("optim", "Optimizers", "changed", "atlas-area-optim"),
        Term("packaging", "Packaging and install", "changed", "atlas-area-packaging"),
        Term("profiler", "Profiler", "changed", "atlas-area-profiler"),
        Term("python", "Python and the core API", "changed", "atlas-area-python"),
        Term("quantization", "Quantization", "changed", "atlas-area-quantization"),
        Term("rocm", "ROCm (AMD GPUs)", "changed", "atlas-area-rocm"),
        Term("tensor", "Tensors and operators", "changed", "atlas-area-tensor"),
        Term("xpu", "Intel XPU", "changed", "atlas-area-xpu"),
    ),
)

#: A verdict that calls the claim false (only a source at least as trusted may say so).
REJECTED: str = VERDICTS.the_one("false")

Companion = Literal["torchvision", "torchaudio", "torchao", "torchcodec"]
#: Libraries released with torch whose versions each release records (data: `companions`), in the
#: order tables list them; "install" ones are pinned in the install commands.
COMPANIONS = Vocabulary(
    "companion",
    (
        Term("torchvision", "torchvision", "is paired", "atlas-companion-torchvision", roles=("install",)),
        Term("torchaudio", "torchaudio", "is paired", "atlas-companion-torchaudio", roles=("install",)),
        Term("torchao", "torchao", "is paired", "atlas-companion-torchao"),
        Term("torchcodec", "torchcodec", "is paired", "atlas-companion-torchcodec"),
    ),
)
#: The package itself, as PyPI and the package index snapshot name it.
TORCH = "torch"
#: The companions an install command pins beside torch.
INSTALLED_COMPANIONS: tuple[str, ...] = tuple(v for v in COMPANIONS.values if v in COMPANIONS.having("install"))

OperatingSystem = Literal["linux", "windows", "macos"]
#: The operating systems a change may apply to (`applies_to.os`) and the guide's OS control offers.
OPERATING_SYSTEMS = Vocabulary(
    "os",
    (
        Term("linux", "Linux", "runs Linux", "atlas-os-linux", roles=("nvidia", "linux")),
        Term("windows", "Windows", "runs Windows", "atlas-os-windows", roles=("nvidia", "windows")),
        Term("macos", "macOS", "runs macOS", "atlas-os-macos", roles=("apple",)),
    ),
)
#: The systems NVIDIA publishes driver minimums for (data/drivers.yaml's columns).
DRIVER_SYSTEMS: tuple[str, ...] = tuple(v for v in OPERATING_SYSTEMS.values if v in OPERATING_SYSTEMS.having("nvidia"))
MACOS: str = OPERATING_SYSTEMS.the_one("apple")
LINUX: str = OPERATING_SYSTEMS.the_one("linux")
WINDOWS: str = OPERATING_SYSTEMS.the_one("windows")


@dataclass(frozen=True)
class VariantFamily:
    """A family of wheel variants: `cuda` holds cu126, cu128...; `cpu` holds itself."""

    value: str  # the family's name, usable in `applies_to.variants`
    label: str  # as the guide's controls show a member
    members: str  # regular expression a member variant matches (the family's own name included)
    pattern: str = ""  # how a member is written besides the family's name ("cu[0-9]{3}")

    def holds(self, variant: str) -> bool:
        return re.fullmatch(self.members, variant) is not None


#: Wheel variant families, in the order the guide's "Wheel" control lists them. cuda and rocm
#: members name a toolkit version (cu128, rocm7.1); mps is PyPI's macOS wheel on Apple silicon,
#: source a PyTorch built by its user.
VARIANT_FAMILIES: tuple[VariantFamily, ...] = (
    VariantFamily("cpu", "CPU", "cpu"),
    VariantFamily("cuda", "CUDA", r"cuda|cu[0-9]+", pattern="cu[0-9]{3}"),
    VariantFamily("rocm", "ROCm", r"rocm.*", pattern=r"rocm[0-9]+\.[0-9]+"),
    VariantFamily("xpu", "Intel XPU", "xpu"),
    VariantFamily("mps", "macOS (MPS)", "mps"),
    VariantFamily("source", "built from source", "source"),
)
#: The regular expression `applies_to.variants` validates against: a family or a member.
VARIANT_PATTERN = "^(" + "|".join(f"{f.value}|{f.pattern}" if f.pattern else f.value for f in VARIANT_FAMILIES) + ")$"
#: The install command without an index (`pip install torch` from PyPI): not a variant of the data.
DEFAULT_WHEEL = "pypi"


def variant_family(variant: str) -> str:
    """cu128 -> cuda, rocm7.1 -> rocm; other names stand for themselves."""
    return next((family.value for family in VARIANT_FAMILIES if family.holds(variant)), variant)


def variant_rank(variant: str) -> int:
    """Position of the variant's family in VARIANT_FAMILIES (the controls' order); unknown last."""
    family = variant_family(variant)
    return next((rank for rank, f in enumerate(VARIANT_FAMILIES) if f.value == family), len(VARIANT_FAMILIES))


def family(value: str) -> VariantFamily:
    return next(f for f in VARIANT_FAMILIES if f.value == value)


CPU, CUDA, ROCM, XPU, MPS, SOURCE = (f.value for f in VARIANT_FAMILIES)

#: Each vocabulary with the Literal type the model validates against.
ALL: tuple[tuple[Vocabulary, object], ...] = (
    (KINDS, Kind),
    (EFFECTS, Effect),
    (STATUSES, Status),
    (TIERS, Tier),
    (VERDICTS, Verdict),
    (NOT_FELT_REASONS, NotFeltReason),
    (AREA_TERMS, Area),
    (COMPANIONS, Companion),
    (OPERATING_SYSTEMS, OperatingSystem),
)


def literal_values(literal: object) -> tuple[str, ...]:
    return tuple(get_args(literal))
