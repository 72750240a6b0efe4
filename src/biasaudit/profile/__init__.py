"""The bias profile: demographic axes x benchmarks, signed effects, FDR-controlled verdicts.

See docs/profile.md. Benchmarks declare a `BenchmarkProfile` in their own folder
(``BenchmarkSpec.profile``; the class is in the plug-in API, `biasaudit.profile_spec`);
`build_profile` / `profile_of_dir` compute the profile of a run folder; `write_outputs`
writes profile.json / profile.csv and the model card of an audit.
"""

from biasaudit.profile.model import Profile, ProfileCell

__all__ = [
    "Profile",
    "ProfileCell",
    "build_profile",
    "profile_of_dir",
    "write_outputs",
]


def __getattr__(name: str) -> object:
    # the builders import the results IO and the plugin registry: load them when used
    if name in ("build_profile", "profile_of_dir"):
        from biasaudit.profile import build

        return getattr(build, name)
    if name == "write_outputs":
        from biasaudit.profile.outputs import write_outputs

        return write_outputs
    raise AttributeError(name)
