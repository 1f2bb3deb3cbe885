import Foundation

/// A `nettap.json` with one deliberate mistake of each kind a fresh user made, and key typos at several depths.
public let brokenConfiguration = #"""
    {
      "$schema": "../schema/nettap.schema.json",
      "scpoe": {},
      "scope": {"allowHosts": ["api.example.com"], "denyHost": ["ads.example.com"]},
      "capture": {"capacity": "lots", "bodyByteLimit": "2 MiB"},
      "redaction": {
        "add": [
          {"header": "regex:^(x"},
          {"feild": "password"},
          {"cookie": "device_id"}
        ]
      },
      "mocks": {
        "stubs": [
          {"name": "a", "match": {"path": "/a"}, "response": {"status": "200"}},
          {"name": 5, "match": {"pathRegex": "^/b/("}, "response": {"status": 200}},
          {"name": "c", "match": {"url": "example.com/c"}, "response": {"status": 200}},
          {"name": "d", "match": {"methd": "GET"}, "response": {"status": 204}}
        ]
      },
      "cassette": {"path": "session.har", "mode": "newEpisode"},
      "integrity": {
        "rules": [{"match": {"host": "cdn.example.com"}, "expect": "filename", "onMismatch": "fallbak"}]
      },
      "cache": {"directory": "cache", "maxBytes": "64 MiB"},
      "store": {"path": "nettap.sqlite", "maxBytes": -5, "maxAgeDays": "two"}
    }
    """#

/// The paths of the mistakes in ``brokenConfiguration``, in document order.
public let brokenConfigurationPaths = [
    "$.scpoe", "$.scope.denyHost", "$.capture.capacity", "$.redaction.add[0].header", "$.redaction.add[1].feild",
    "$.mocks.stubs[0].response.status", "$.mocks.stubs[1].name", "$.mocks.stubs[1].match.pathRegex",
    "$.mocks.stubs[2].match.url", "$.mocks.stubs[3].match.methd", "$.cassette.mode",
    "$.integrity.rules[0].onMismatch", "$.store.maxBytes", "$.store.maxAgeDays",
]
