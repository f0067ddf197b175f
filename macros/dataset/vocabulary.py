"""Loading stage: the closed vocabularies of the data, each value's wording and style in one place.

Every enumerated field (an item's kind, effect and status, a source's tier, a dispute's verdict)
is declared here twice, side by side: as a `Literal` type, which the model validates against and
the JSON Schema lists, and as a `Vocabulary` of `Term`s, in reading order, that says how each
value is shown: its label, the verb used in sentences ("deprecated in 2.10"), and the CSS class
that styles it. A test checks that both halves list the same values, so a new value cannot reach
a page without its wording.
"""

from __future__ import annotations

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


Kind = Literal["highlight", "feature", "improvement", "breaking", "deprecation", "removal", "platform", "regression"]
KINDS = Vocabulary(
    "kind",
    (
        Term("highlight", "Highlight", "introduced", "atlas-kind-highlight"),
        Term("breaking", "Breaking change", "changed", "atlas-kind-breaking"),
        Term("deprecation", "Deprecation", "deprecated", "atlas-kind-deprecation"),
        Term("removal", "Removal", "removed", "atlas-kind-removal"),
        Term("platform", "Platform change", "changed", "atlas-kind-platform"),
        Term("feature", "New feature", "introduced", "atlas-kind-feature"),
        Term("improvement", "Improvement", "improved", "atlas-kind-improvement"),
        Term("regression", "Known regression", "regressed", "atlas-kind-regression"),
    ),
)
#: Kinds that change what a user's existing code or install does; they must say how they hit.
CHANGE_KINDS: frozenset[str] = frozenset({"breaking", "deprecation", "removal", "platform"})
FEATURE_KINDS: frozenset[str] = frozenset({"highlight", "feature", "improvement"})

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
        Term("performance", "changes performance", "runs at a different speed", "atlas-effect-performance"),
        Term("packaging", "packaging / install", "installs differently", "atlas-effect-packaging"),
    ),
)

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
        Term("rejected", "Rejected", "rejected", "atlas-verdict-rejected"),
        Term("corrected", "Corrected", "corrected", "atlas-verdict-corrected"),
        Term("unresolved", "Unresolved", "left open", "atlas-verdict-unresolved"),
    ),
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
        Term("fix", "a failure in a narrow case now works", "is fixed", "atlas-notfelt-fix"),
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

#: Each vocabulary with the Literal type the model validates against.
ALL: tuple[tuple[Vocabulary, object], ...] = (
    (KINDS, Kind),
    (EFFECTS, Effect),
    (STATUSES, Status),
    (TIERS, Tier),
    (VERDICTS, Verdict),
    (NOT_FELT_REASONS, NotFeltReason),
    (AREA_TERMS, Area),
)


def literal_values(literal: object) -> tuple[str, ...]:
    return tuple(get_args(literal))
