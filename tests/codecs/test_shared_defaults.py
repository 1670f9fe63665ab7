"""An array field's default in a generated message class is one object that every instance shares:
changing it through one instance must not change the next one built with the defaults."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import kafkaspec.generated.messages as messages


def _classes() -> list[type]:
    found = []
    for info in pkgutil.iter_modules(messages.__path__):
        module = importlib.import_module(f"{messages.__name__}.{info.name}")
        found += [
            c
            for c in vars(module).values()
            if isinstance(c, type)
            and issubclass(c, tuple)
            and c.__module__ == module.__name__
            and any(isinstance(d, list) for d in c._field_defaults.values())
        ]
    return sorted(found, key=lambda c: (c.__module__, c.__name__))


CLASSES = _classes()


def test_there_are_array_defaults_to_check():
    assert len(CLASSES) > 50


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: f"{c.__module__.rsplit('.', 1)[1]}.{c.__name__}")
def test_changing_a_default_list_leaves_the_next_instance_alone(cls):
    names = [n for n, d in cls._field_defaults.items() if isinstance(d, list)]
    first = cls()
    for name in names:
        for change in (
            lambda v: v.append("x"),
            lambda v: v.extend(["x"]),
            lambda v: v.insert(0, "x"),
            lambda v: v.__iadd__(["x"]),
            lambda v: v.__setitem__(slice(0, 0), ["x"]),
        ):
            try:
                change(getattr(first, name))
            except TypeError as exc:  # refused, saying what to do instead
                assert cls.__name__ in str(exc) or "default" in str(exc)
    second = cls()
    for name in names:
        assert getattr(second, name) == [], f"{cls.__name__}().{name} is {getattr(second, name)!r}"
        assert cls._field_defaults[name] == []
    # a default still equals the empty list a decoder returns
    assert second == cls(**{name: [] for name in names})
    assert second == first


def test_a_copied_default_is_a_list_of_ones_own():
    import copy
    import pickle

    from kafkaspec.generated.messages.broker_registration_change_record import BrokerRegistrationChangeRecord

    record = BrokerRegistrationChangeRecord()
    mine = copy.deepcopy(record).log_dirs
    mine.append("x")
    assert copy.copy(record.log_dirs) == [] and BrokerRegistrationChangeRecord().log_dirs == []
    assert pickle.loads(pickle.dumps(record)) == record
