"""The version, in a leaf module: the build, `ragguard --version` and `ragguard.__version__`
read it without importing the package."""

__version__ = "0.1.0"
