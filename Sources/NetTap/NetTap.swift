// The umbrella module: `import NetTap` brings in every NetTap capability.
@_exported import NetTapAudit
@_exported import NetTapCache
@_exported import NetTapConfiguration
@_exported import NetTapCore
@_exported import NetTapFiles
@_exported import NetTapHAR
@_exported import NetTapInspector
@_exported import NetTapIntegrity
@_exported import NetTapMocking
@_exported import NetTapReplay
@_exported import NetTapReport
@_exported import NetTapRewrite
@_exported import NetTapShaping
@_exported import NetTapStore
