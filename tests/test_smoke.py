"""The package imports."""


def test_package_imports() -> None:
    import bot

    assert bot.__doc__
