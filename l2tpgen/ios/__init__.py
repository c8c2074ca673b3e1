"""The one place that reads Cisco IOS text: lint, device (push, verify), sim and import use it.

- ``text``: clean-up of real-world text (prompts, headers, flattened or uniformly indented pastes,
  tabs, CRLF/CR, BOM, UTF-16, NUL, ``exit``/``end``, banners) keeping file line numbers;
- ``tree``: the config tree (ciscoconfparse 1.7.x behind it), repeated sections merged;
- ``facts`` / ``extract``: the L2TPv3-relevant facts of a device;
- ``keywords``: the keywords of each configuration mode and their IOS abbreviations;
- ``names``: interface names (abbreviations, spaces, case; ASCII digits only), short forms, order;
- ``type7``: Cisco type 7 (netutils' cipher, with validation);
- ``order``: running-config order of top-level lines;
- ``volatile``: lines that change by themselves (``ntp clock-period``, timestamps).

Import the submodules themselves: this package imports nothing, so that reading an interface name
(the model does) does not load the parser.
"""
