import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `URLProtocol` class per interceptor other than `NetTapInterceptor.shared`, so the class the URL Loading System
/// instantiates says which interceptor serves the request — on every platform, without looking at the session.
///
/// The URL Loading System creates a protocol instance from the class listed in the session configuration's
/// `protocolClasses`; ``NetTapInterceptor/install(into:)`` of a private interceptor lists that interceptor's slot
/// class instead of ``NetTapURLProtocol`` itself. A slot is free again after ``NetTapInterceptor/uninstall()`` or
/// when its interceptor is gone (slots hold interceptors weakly, so an app that drops an interceptor does not
/// leak it). Where the configuration can be seen (Linux), its mark is asked first, so a session always finds the
/// interceptor that installed into it; the slot class is what finds it where the configuration cannot be seen
/// (Apple platforms). When all 256 slots are taken, the configuration gets the base class.
///
/// Used on platforms where the session's configuration cannot be seen (Apple platforms). On Linux the mark in
/// the configuration is enough and slots are taken only on request (tests of this path), so a test process
/// creating hundreds of interceptors never runs out. Keep a reference to an interceptor while its sessions run:
/// a slot whose interceptor is gone is free for the next one.
enum ProtocolSlots {
    /// The slot classes, in slot order.
    static let classes: [NetTapURLProtocol.Type] = [
        NetTapURLProtocolSlot0.self, NetTapURLProtocolSlot1.self, NetTapURLProtocolSlot2.self,
        NetTapURLProtocolSlot3.self,
        NetTapURLProtocolSlot4.self, NetTapURLProtocolSlot5.self, NetTapURLProtocolSlot6.self,
        NetTapURLProtocolSlot7.self,
        NetTapURLProtocolSlot8.self, NetTapURLProtocolSlot9.self, NetTapURLProtocolSlot10.self,
        NetTapURLProtocolSlot11.self,
        NetTapURLProtocolSlot12.self, NetTapURLProtocolSlot13.self, NetTapURLProtocolSlot14.self,
        NetTapURLProtocolSlot15.self,
        NetTapURLProtocolSlot16.self, NetTapURLProtocolSlot17.self, NetTapURLProtocolSlot18.self,
        NetTapURLProtocolSlot19.self,
        NetTapURLProtocolSlot20.self, NetTapURLProtocolSlot21.self, NetTapURLProtocolSlot22.self,
        NetTapURLProtocolSlot23.self,
        NetTapURLProtocolSlot24.self, NetTapURLProtocolSlot25.self, NetTapURLProtocolSlot26.self,
        NetTapURLProtocolSlot27.self,
        NetTapURLProtocolSlot28.self, NetTapURLProtocolSlot29.self, NetTapURLProtocolSlot30.self,
        NetTapURLProtocolSlot31.self,
        NetTapURLProtocolSlot32.self, NetTapURLProtocolSlot33.self, NetTapURLProtocolSlot34.self,
        NetTapURLProtocolSlot35.self,
        NetTapURLProtocolSlot36.self, NetTapURLProtocolSlot37.self, NetTapURLProtocolSlot38.self,
        NetTapURLProtocolSlot39.self,
        NetTapURLProtocolSlot40.self, NetTapURLProtocolSlot41.self, NetTapURLProtocolSlot42.self,
        NetTapURLProtocolSlot43.self,
        NetTapURLProtocolSlot44.self, NetTapURLProtocolSlot45.self, NetTapURLProtocolSlot46.self,
        NetTapURLProtocolSlot47.self,
        NetTapURLProtocolSlot48.self, NetTapURLProtocolSlot49.self, NetTapURLProtocolSlot50.self,
        NetTapURLProtocolSlot51.self,
        NetTapURLProtocolSlot52.self, NetTapURLProtocolSlot53.self, NetTapURLProtocolSlot54.self,
        NetTapURLProtocolSlot55.self,
        NetTapURLProtocolSlot56.self, NetTapURLProtocolSlot57.self, NetTapURLProtocolSlot58.self,
        NetTapURLProtocolSlot59.self,
        NetTapURLProtocolSlot60.self, NetTapURLProtocolSlot61.self, NetTapURLProtocolSlot62.self,
        NetTapURLProtocolSlot63.self,
        NetTapURLProtocolSlot64.self, NetTapURLProtocolSlot65.self, NetTapURLProtocolSlot66.self,
        NetTapURLProtocolSlot67.self,
        NetTapURLProtocolSlot68.self, NetTapURLProtocolSlot69.self, NetTapURLProtocolSlot70.self,
        NetTapURLProtocolSlot71.self,
        NetTapURLProtocolSlot72.self, NetTapURLProtocolSlot73.self, NetTapURLProtocolSlot74.self,
        NetTapURLProtocolSlot75.self,
        NetTapURLProtocolSlot76.self, NetTapURLProtocolSlot77.self, NetTapURLProtocolSlot78.self,
        NetTapURLProtocolSlot79.self,
        NetTapURLProtocolSlot80.self, NetTapURLProtocolSlot81.self, NetTapURLProtocolSlot82.self,
        NetTapURLProtocolSlot83.self,
        NetTapURLProtocolSlot84.self, NetTapURLProtocolSlot85.self, NetTapURLProtocolSlot86.self,
        NetTapURLProtocolSlot87.self,
        NetTapURLProtocolSlot88.self, NetTapURLProtocolSlot89.self, NetTapURLProtocolSlot90.self,
        NetTapURLProtocolSlot91.self,
        NetTapURLProtocolSlot92.self, NetTapURLProtocolSlot93.self, NetTapURLProtocolSlot94.self,
        NetTapURLProtocolSlot95.self,
        NetTapURLProtocolSlot96.self, NetTapURLProtocolSlot97.self, NetTapURLProtocolSlot98.self,
        NetTapURLProtocolSlot99.self,
        NetTapURLProtocolSlot100.self, NetTapURLProtocolSlot101.self, NetTapURLProtocolSlot102.self,
        NetTapURLProtocolSlot103.self,
        NetTapURLProtocolSlot104.self, NetTapURLProtocolSlot105.self, NetTapURLProtocolSlot106.self,
        NetTapURLProtocolSlot107.self,
        NetTapURLProtocolSlot108.self, NetTapURLProtocolSlot109.self, NetTapURLProtocolSlot110.self,
        NetTapURLProtocolSlot111.self,
        NetTapURLProtocolSlot112.self, NetTapURLProtocolSlot113.self, NetTapURLProtocolSlot114.self,
        NetTapURLProtocolSlot115.self,
        NetTapURLProtocolSlot116.self, NetTapURLProtocolSlot117.self, NetTapURLProtocolSlot118.self,
        NetTapURLProtocolSlot119.self,
        NetTapURLProtocolSlot120.self, NetTapURLProtocolSlot121.self, NetTapURLProtocolSlot122.self,
        NetTapURLProtocolSlot123.self,
        NetTapURLProtocolSlot124.self, NetTapURLProtocolSlot125.self, NetTapURLProtocolSlot126.self,
        NetTapURLProtocolSlot127.self,
        NetTapURLProtocolSlot128.self, NetTapURLProtocolSlot129.self, NetTapURLProtocolSlot130.self,
        NetTapURLProtocolSlot131.self,
        NetTapURLProtocolSlot132.self, NetTapURLProtocolSlot133.self, NetTapURLProtocolSlot134.self,
        NetTapURLProtocolSlot135.self,
        NetTapURLProtocolSlot136.self, NetTapURLProtocolSlot137.self, NetTapURLProtocolSlot138.self,
        NetTapURLProtocolSlot139.self,
        NetTapURLProtocolSlot140.self, NetTapURLProtocolSlot141.self, NetTapURLProtocolSlot142.self,
        NetTapURLProtocolSlot143.self,
        NetTapURLProtocolSlot144.self, NetTapURLProtocolSlot145.self, NetTapURLProtocolSlot146.self,
        NetTapURLProtocolSlot147.self,
        NetTapURLProtocolSlot148.self, NetTapURLProtocolSlot149.self, NetTapURLProtocolSlot150.self,
        NetTapURLProtocolSlot151.self,
        NetTapURLProtocolSlot152.self, NetTapURLProtocolSlot153.self, NetTapURLProtocolSlot154.self,
        NetTapURLProtocolSlot155.self,
        NetTapURLProtocolSlot156.self, NetTapURLProtocolSlot157.self, NetTapURLProtocolSlot158.self,
        NetTapURLProtocolSlot159.self,
        NetTapURLProtocolSlot160.self, NetTapURLProtocolSlot161.self, NetTapURLProtocolSlot162.self,
        NetTapURLProtocolSlot163.self,
        NetTapURLProtocolSlot164.self, NetTapURLProtocolSlot165.self, NetTapURLProtocolSlot166.self,
        NetTapURLProtocolSlot167.self,
        NetTapURLProtocolSlot168.self, NetTapURLProtocolSlot169.self, NetTapURLProtocolSlot170.self,
        NetTapURLProtocolSlot171.self,
        NetTapURLProtocolSlot172.self, NetTapURLProtocolSlot173.self, NetTapURLProtocolSlot174.self,
        NetTapURLProtocolSlot175.self,
        NetTapURLProtocolSlot176.self, NetTapURLProtocolSlot177.self, NetTapURLProtocolSlot178.self,
        NetTapURLProtocolSlot179.self,
        NetTapURLProtocolSlot180.self, NetTapURLProtocolSlot181.self, NetTapURLProtocolSlot182.self,
        NetTapURLProtocolSlot183.self,
        NetTapURLProtocolSlot184.self, NetTapURLProtocolSlot185.self, NetTapURLProtocolSlot186.self,
        NetTapURLProtocolSlot187.self,
        NetTapURLProtocolSlot188.self, NetTapURLProtocolSlot189.self, NetTapURLProtocolSlot190.self,
        NetTapURLProtocolSlot191.self,
        NetTapURLProtocolSlot192.self, NetTapURLProtocolSlot193.self, NetTapURLProtocolSlot194.self,
        NetTapURLProtocolSlot195.self,
        NetTapURLProtocolSlot196.self, NetTapURLProtocolSlot197.self, NetTapURLProtocolSlot198.self,
        NetTapURLProtocolSlot199.self,
        NetTapURLProtocolSlot200.self, NetTapURLProtocolSlot201.self, NetTapURLProtocolSlot202.self,
        NetTapURLProtocolSlot203.self,
        NetTapURLProtocolSlot204.self, NetTapURLProtocolSlot205.self, NetTapURLProtocolSlot206.self,
        NetTapURLProtocolSlot207.self,
        NetTapURLProtocolSlot208.self, NetTapURLProtocolSlot209.self, NetTapURLProtocolSlot210.self,
        NetTapURLProtocolSlot211.self,
        NetTapURLProtocolSlot212.self, NetTapURLProtocolSlot213.self, NetTapURLProtocolSlot214.self,
        NetTapURLProtocolSlot215.self,
        NetTapURLProtocolSlot216.self, NetTapURLProtocolSlot217.self, NetTapURLProtocolSlot218.self,
        NetTapURLProtocolSlot219.self,
        NetTapURLProtocolSlot220.self, NetTapURLProtocolSlot221.self, NetTapURLProtocolSlot222.self,
        NetTapURLProtocolSlot223.self,
        NetTapURLProtocolSlot224.self, NetTapURLProtocolSlot225.self, NetTapURLProtocolSlot226.self,
        NetTapURLProtocolSlot227.self,
        NetTapURLProtocolSlot228.self, NetTapURLProtocolSlot229.self, NetTapURLProtocolSlot230.self,
        NetTapURLProtocolSlot231.self,
        NetTapURLProtocolSlot232.self, NetTapURLProtocolSlot233.self, NetTapURLProtocolSlot234.self,
        NetTapURLProtocolSlot235.self,
        NetTapURLProtocolSlot236.self, NetTapURLProtocolSlot237.self, NetTapURLProtocolSlot238.self,
        NetTapURLProtocolSlot239.self,
        NetTapURLProtocolSlot240.self, NetTapURLProtocolSlot241.self, NetTapURLProtocolSlot242.self,
        NetTapURLProtocolSlot243.self,
        NetTapURLProtocolSlot244.self, NetTapURLProtocolSlot245.self, NetTapURLProtocolSlot246.self,
        NetTapURLProtocolSlot247.self,
        NetTapURLProtocolSlot248.self, NetTapURLProtocolSlot249.self, NetTapURLProtocolSlot250.self,
        NetTapURLProtocolSlot251.self,
        NetTapURLProtocolSlot252.self, NetTapURLProtocolSlot253.self, NetTapURLProtocolSlot254.self,
        NetTapURLProtocolSlot255.self,
    ]

    private struct Owner {
        weak var interceptor: NetTapInterceptor?
    }

    private static let owners = Locked<[Owner]>(Array(repeating: Owner(), count: classes.count))

    /// Whether ``NetTapInterceptor/install(into:)`` gives private interceptors a slot class on this platform.
    #if canImport(FoundationNetworking)
    static let isDefault = false
    #else
    static let isDefault = true
    #endif

    /// The slot class of `interceptor`, taking a free slot on first use; `nil` when every slot is taken.
    static func slotClass(for interceptor: NetTapInterceptor) -> NetTapURLProtocol.Type? {
        let index = owners.withLock { owners -> Int? in
            if let existing = owners.firstIndex(where: { $0.interceptor === interceptor }) { return existing }
            guard let free = owners.firstIndex(where: { $0.interceptor == nil }) else { return nil }
            owners[free].interceptor = interceptor
            return free
        }
        return index.map { classes[$0] }
    }

    /// Frees the slot of `interceptor`, if it has one.
    static func release(_ interceptor: NetTapInterceptor) {
        owners.withLock { owners in
            if let index = owners.firstIndex(where: { $0.interceptor === interceptor }) {
                owners[index].interceptor = nil
            }
        }
    }

    /// The interceptor owning a slot class; `nil` for the base class and for a freed slot.
    static func interceptor(for type: AnyClass) -> NetTapInterceptor? {
        guard let index = classes.firstIndex(where: { $0 == type }) else { return nil }
        return owners.withLock { $0[index].interceptor }
    }

    /// Whether a class is NetTap's protocol or one of its slot classes.
    static func isNetTap(_ type: AnyClass) -> Bool {
        type is NetTapURLProtocol.Type
    }
}

// The slot classes: NetTapURLProtocol with nothing added; only their identity matters.
final class NetTapURLProtocolSlot0: NetTapURLProtocol {}
final class NetTapURLProtocolSlot1: NetTapURLProtocol {}
final class NetTapURLProtocolSlot2: NetTapURLProtocol {}
final class NetTapURLProtocolSlot3: NetTapURLProtocol {}
final class NetTapURLProtocolSlot4: NetTapURLProtocol {}
final class NetTapURLProtocolSlot5: NetTapURLProtocol {}
final class NetTapURLProtocolSlot6: NetTapURLProtocol {}
final class NetTapURLProtocolSlot7: NetTapURLProtocol {}
final class NetTapURLProtocolSlot8: NetTapURLProtocol {}
final class NetTapURLProtocolSlot9: NetTapURLProtocol {}
final class NetTapURLProtocolSlot10: NetTapURLProtocol {}
final class NetTapURLProtocolSlot11: NetTapURLProtocol {}
final class NetTapURLProtocolSlot12: NetTapURLProtocol {}
final class NetTapURLProtocolSlot13: NetTapURLProtocol {}
final class NetTapURLProtocolSlot14: NetTapURLProtocol {}
final class NetTapURLProtocolSlot15: NetTapURLProtocol {}
final class NetTapURLProtocolSlot16: NetTapURLProtocol {}
final class NetTapURLProtocolSlot17: NetTapURLProtocol {}
final class NetTapURLProtocolSlot18: NetTapURLProtocol {}
final class NetTapURLProtocolSlot19: NetTapURLProtocol {}
final class NetTapURLProtocolSlot20: NetTapURLProtocol {}
final class NetTapURLProtocolSlot21: NetTapURLProtocol {}
final class NetTapURLProtocolSlot22: NetTapURLProtocol {}
final class NetTapURLProtocolSlot23: NetTapURLProtocol {}
final class NetTapURLProtocolSlot24: NetTapURLProtocol {}
final class NetTapURLProtocolSlot25: NetTapURLProtocol {}
final class NetTapURLProtocolSlot26: NetTapURLProtocol {}
final class NetTapURLProtocolSlot27: NetTapURLProtocol {}
final class NetTapURLProtocolSlot28: NetTapURLProtocol {}
final class NetTapURLProtocolSlot29: NetTapURLProtocol {}
final class NetTapURLProtocolSlot30: NetTapURLProtocol {}
final class NetTapURLProtocolSlot31: NetTapURLProtocol {}
final class NetTapURLProtocolSlot32: NetTapURLProtocol {}
final class NetTapURLProtocolSlot33: NetTapURLProtocol {}
final class NetTapURLProtocolSlot34: NetTapURLProtocol {}
final class NetTapURLProtocolSlot35: NetTapURLProtocol {}
final class NetTapURLProtocolSlot36: NetTapURLProtocol {}
final class NetTapURLProtocolSlot37: NetTapURLProtocol {}
final class NetTapURLProtocolSlot38: NetTapURLProtocol {}
final class NetTapURLProtocolSlot39: NetTapURLProtocol {}
final class NetTapURLProtocolSlot40: NetTapURLProtocol {}
final class NetTapURLProtocolSlot41: NetTapURLProtocol {}
final class NetTapURLProtocolSlot42: NetTapURLProtocol {}
final class NetTapURLProtocolSlot43: NetTapURLProtocol {}
final class NetTapURLProtocolSlot44: NetTapURLProtocol {}
final class NetTapURLProtocolSlot45: NetTapURLProtocol {}
final class NetTapURLProtocolSlot46: NetTapURLProtocol {}
final class NetTapURLProtocolSlot47: NetTapURLProtocol {}
final class NetTapURLProtocolSlot48: NetTapURLProtocol {}
final class NetTapURLProtocolSlot49: NetTapURLProtocol {}
final class NetTapURLProtocolSlot50: NetTapURLProtocol {}
final class NetTapURLProtocolSlot51: NetTapURLProtocol {}
final class NetTapURLProtocolSlot52: NetTapURLProtocol {}
final class NetTapURLProtocolSlot53: NetTapURLProtocol {}
final class NetTapURLProtocolSlot54: NetTapURLProtocol {}
final class NetTapURLProtocolSlot55: NetTapURLProtocol {}
final class NetTapURLProtocolSlot56: NetTapURLProtocol {}
final class NetTapURLProtocolSlot57: NetTapURLProtocol {}
final class NetTapURLProtocolSlot58: NetTapURLProtocol {}
final class NetTapURLProtocolSlot59: NetTapURLProtocol {}
final class NetTapURLProtocolSlot60: NetTapURLProtocol {}
final class NetTapURLProtocolSlot61: NetTapURLProtocol {}
final class NetTapURLProtocolSlot62: NetTapURLProtocol {}
final class NetTapURLProtocolSlot63: NetTapURLProtocol {}
final class NetTapURLProtocolSlot64: NetTapURLProtocol {}
final class NetTapURLProtocolSlot65: NetTapURLProtocol {}
final class NetTapURLProtocolSlot66: NetTapURLProtocol {}
final class NetTapURLProtocolSlot67: NetTapURLProtocol {}
final class NetTapURLProtocolSlot68: NetTapURLProtocol {}
final class NetTapURLProtocolSlot69: NetTapURLProtocol {}
final class NetTapURLProtocolSlot70: NetTapURLProtocol {}
final class NetTapURLProtocolSlot71: NetTapURLProtocol {}
final class NetTapURLProtocolSlot72: NetTapURLProtocol {}
final class NetTapURLProtocolSlot73: NetTapURLProtocol {}
final class NetTapURLProtocolSlot74: NetTapURLProtocol {}
final class NetTapURLProtocolSlot75: NetTapURLProtocol {}
final class NetTapURLProtocolSlot76: NetTapURLProtocol {}
final class NetTapURLProtocolSlot77: NetTapURLProtocol {}
final class NetTapURLProtocolSlot78: NetTapURLProtocol {}
final class NetTapURLProtocolSlot79: NetTapURLProtocol {}
final class NetTapURLProtocolSlot80: NetTapURLProtocol {}
final class NetTapURLProtocolSlot81: NetTapURLProtocol {}
final class NetTapURLProtocolSlot82: NetTapURLProtocol {}
final class NetTapURLProtocolSlot83: NetTapURLProtocol {}
final class NetTapURLProtocolSlot84: NetTapURLProtocol {}
final class NetTapURLProtocolSlot85: NetTapURLProtocol {}
final class NetTapURLProtocolSlot86: NetTapURLProtocol {}
final class NetTapURLProtocolSlot87: NetTapURLProtocol {}
final class NetTapURLProtocolSlot88: NetTapURLProtocol {}
final class NetTapURLProtocolSlot89: NetTapURLProtocol {}
final class NetTapURLProtocolSlot90: NetTapURLProtocol {}
final class NetTapURLProtocolSlot91: NetTapURLProtocol {}
final class NetTapURLProtocolSlot92: NetTapURLProtocol {}
final class NetTapURLProtocolSlot93: NetTapURLProtocol {}
final class NetTapURLProtocolSlot94: NetTapURLProtocol {}
final class NetTapURLProtocolSlot95: NetTapURLProtocol {}
final class NetTapURLProtocolSlot96: NetTapURLProtocol {}
final class NetTapURLProtocolSlot97: NetTapURLProtocol {}
final class NetTapURLProtocolSlot98: NetTapURLProtocol {}
final class NetTapURLProtocolSlot99: NetTapURLProtocol {}
final class NetTapURLProtocolSlot100: NetTapURLProtocol {}
final class NetTapURLProtocolSlot101: NetTapURLProtocol {}
final class NetTapURLProtocolSlot102: NetTapURLProtocol {}
final class NetTapURLProtocolSlot103: NetTapURLProtocol {}
final class NetTapURLProtocolSlot104: NetTapURLProtocol {}
final class NetTapURLProtocolSlot105: NetTapURLProtocol {}
final class NetTapURLProtocolSlot106: NetTapURLProtocol {}
final class NetTapURLProtocolSlot107: NetTapURLProtocol {}
final class NetTapURLProtocolSlot108: NetTapURLProtocol {}
final class NetTapURLProtocolSlot109: NetTapURLProtocol {}
final class NetTapURLProtocolSlot110: NetTapURLProtocol {}
final class NetTapURLProtocolSlot111: NetTapURLProtocol {}
final class NetTapURLProtocolSlot112: NetTapURLProtocol {}
final class NetTapURLProtocolSlot113: NetTapURLProtocol {}
final class NetTapURLProtocolSlot114: NetTapURLProtocol {}
final class NetTapURLProtocolSlot115: NetTapURLProtocol {}
final class NetTapURLProtocolSlot116: NetTapURLProtocol {}
final class NetTapURLProtocolSlot117: NetTapURLProtocol {}
final class NetTapURLProtocolSlot118: NetTapURLProtocol {}
final class NetTapURLProtocolSlot119: NetTapURLProtocol {}
final class NetTapURLProtocolSlot120: NetTapURLProtocol {}
final class NetTapURLProtocolSlot121: NetTapURLProtocol {}
final class NetTapURLProtocolSlot122: NetTapURLProtocol {}
final class NetTapURLProtocolSlot123: NetTapURLProtocol {}
final class NetTapURLProtocolSlot124: NetTapURLProtocol {}
final class NetTapURLProtocolSlot125: NetTapURLProtocol {}
final class NetTapURLProtocolSlot126: NetTapURLProtocol {}
final class NetTapURLProtocolSlot127: NetTapURLProtocol {}
final class NetTapURLProtocolSlot128: NetTapURLProtocol {}
final class NetTapURLProtocolSlot129: NetTapURLProtocol {}
final class NetTapURLProtocolSlot130: NetTapURLProtocol {}
final class NetTapURLProtocolSlot131: NetTapURLProtocol {}
final class NetTapURLProtocolSlot132: NetTapURLProtocol {}
final class NetTapURLProtocolSlot133: NetTapURLProtocol {}
final class NetTapURLProtocolSlot134: NetTapURLProtocol {}
final class NetTapURLProtocolSlot135: NetTapURLProtocol {}
final class NetTapURLProtocolSlot136: NetTapURLProtocol {}
final class NetTapURLProtocolSlot137: NetTapURLProtocol {}
final class NetTapURLProtocolSlot138: NetTapURLProtocol {}
final class NetTapURLProtocolSlot139: NetTapURLProtocol {}
final class NetTapURLProtocolSlot140: NetTapURLProtocol {}
final class NetTapURLProtocolSlot141: NetTapURLProtocol {}
final class NetTapURLProtocolSlot142: NetTapURLProtocol {}
final class NetTapURLProtocolSlot143: NetTapURLProtocol {}
final class NetTapURLProtocolSlot144: NetTapURLProtocol {}
final class NetTapURLProtocolSlot145: NetTapURLProtocol {}
final class NetTapURLProtocolSlot146: NetTapURLProtocol {}
final class NetTapURLProtocolSlot147: NetTapURLProtocol {}
final class NetTapURLProtocolSlot148: NetTapURLProtocol {}
final class NetTapURLProtocolSlot149: NetTapURLProtocol {}
final class NetTapURLProtocolSlot150: NetTapURLProtocol {}
final class NetTapURLProtocolSlot151: NetTapURLProtocol {}
final class NetTapURLProtocolSlot152: NetTapURLProtocol {}
final class NetTapURLProtocolSlot153: NetTapURLProtocol {}
final class NetTapURLProtocolSlot154: NetTapURLProtocol {}
final class NetTapURLProtocolSlot155: NetTapURLProtocol {}
final class NetTapURLProtocolSlot156: NetTapURLProtocol {}
final class NetTapURLProtocolSlot157: NetTapURLProtocol {}
final class NetTapURLProtocolSlot158: NetTapURLProtocol {}
final class NetTapURLProtocolSlot159: NetTapURLProtocol {}
final class NetTapURLProtocolSlot160: NetTapURLProtocol {}
final class NetTapURLProtocolSlot161: NetTapURLProtocol {}
final class NetTapURLProtocolSlot162: NetTapURLProtocol {}
final class NetTapURLProtocolSlot163: NetTapURLProtocol {}
final class NetTapURLProtocolSlot164: NetTapURLProtocol {}
final class NetTapURLProtocolSlot165: NetTapURLProtocol {}
final class NetTapURLProtocolSlot166: NetTapURLProtocol {}
final class NetTapURLProtocolSlot167: NetTapURLProtocol {}
final class NetTapURLProtocolSlot168: NetTapURLProtocol {}
final class NetTapURLProtocolSlot169: NetTapURLProtocol {}
final class NetTapURLProtocolSlot170: NetTapURLProtocol {}
final class NetTapURLProtocolSlot171: NetTapURLProtocol {}
final class NetTapURLProtocolSlot172: NetTapURLProtocol {}
final class NetTapURLProtocolSlot173: NetTapURLProtocol {}
final class NetTapURLProtocolSlot174: NetTapURLProtocol {}
final class NetTapURLProtocolSlot175: NetTapURLProtocol {}
final class NetTapURLProtocolSlot176: NetTapURLProtocol {}
final class NetTapURLProtocolSlot177: NetTapURLProtocol {}
final class NetTapURLProtocolSlot178: NetTapURLProtocol {}
final class NetTapURLProtocolSlot179: NetTapURLProtocol {}
final class NetTapURLProtocolSlot180: NetTapURLProtocol {}
final class NetTapURLProtocolSlot181: NetTapURLProtocol {}
final class NetTapURLProtocolSlot182: NetTapURLProtocol {}
final class NetTapURLProtocolSlot183: NetTapURLProtocol {}
final class NetTapURLProtocolSlot184: NetTapURLProtocol {}
final class NetTapURLProtocolSlot185: NetTapURLProtocol {}
final class NetTapURLProtocolSlot186: NetTapURLProtocol {}
final class NetTapURLProtocolSlot187: NetTapURLProtocol {}
final class NetTapURLProtocolSlot188: NetTapURLProtocol {}
final class NetTapURLProtocolSlot189: NetTapURLProtocol {}
final class NetTapURLProtocolSlot190: NetTapURLProtocol {}
final class NetTapURLProtocolSlot191: NetTapURLProtocol {}
final class NetTapURLProtocolSlot192: NetTapURLProtocol {}
final class NetTapURLProtocolSlot193: NetTapURLProtocol {}
final class NetTapURLProtocolSlot194: NetTapURLProtocol {}
final class NetTapURLProtocolSlot195: NetTapURLProtocol {}
final class NetTapURLProtocolSlot196: NetTapURLProtocol {}
final class NetTapURLProtocolSlot197: NetTapURLProtocol {}
final class NetTapURLProtocolSlot198: NetTapURLProtocol {}
final class NetTapURLProtocolSlot199: NetTapURLProtocol {}
final class NetTapURLProtocolSlot200: NetTapURLProtocol {}
final class NetTapURLProtocolSlot201: NetTapURLProtocol {}
final class NetTapURLProtocolSlot202: NetTapURLProtocol {}
final class NetTapURLProtocolSlot203: NetTapURLProtocol {}
final class NetTapURLProtocolSlot204: NetTapURLProtocol {}
final class NetTapURLProtocolSlot205: NetTapURLProtocol {}
final class NetTapURLProtocolSlot206: NetTapURLProtocol {}
final class NetTapURLProtocolSlot207: NetTapURLProtocol {}
final class NetTapURLProtocolSlot208: NetTapURLProtocol {}
final class NetTapURLProtocolSlot209: NetTapURLProtocol {}
final class NetTapURLProtocolSlot210: NetTapURLProtocol {}
final class NetTapURLProtocolSlot211: NetTapURLProtocol {}
final class NetTapURLProtocolSlot212: NetTapURLProtocol {}
final class NetTapURLProtocolSlot213: NetTapURLProtocol {}
final class NetTapURLProtocolSlot214: NetTapURLProtocol {}
final class NetTapURLProtocolSlot215: NetTapURLProtocol {}
final class NetTapURLProtocolSlot216: NetTapURLProtocol {}
final class NetTapURLProtocolSlot217: NetTapURLProtocol {}
final class NetTapURLProtocolSlot218: NetTapURLProtocol {}
final class NetTapURLProtocolSlot219: NetTapURLProtocol {}
final class NetTapURLProtocolSlot220: NetTapURLProtocol {}
final class NetTapURLProtocolSlot221: NetTapURLProtocol {}
final class NetTapURLProtocolSlot222: NetTapURLProtocol {}
final class NetTapURLProtocolSlot223: NetTapURLProtocol {}
final class NetTapURLProtocolSlot224: NetTapURLProtocol {}
final class NetTapURLProtocolSlot225: NetTapURLProtocol {}
final class NetTapURLProtocolSlot226: NetTapURLProtocol {}
final class NetTapURLProtocolSlot227: NetTapURLProtocol {}
final class NetTapURLProtocolSlot228: NetTapURLProtocol {}
final class NetTapURLProtocolSlot229: NetTapURLProtocol {}
final class NetTapURLProtocolSlot230: NetTapURLProtocol {}
final class NetTapURLProtocolSlot231: NetTapURLProtocol {}
final class NetTapURLProtocolSlot232: NetTapURLProtocol {}
final class NetTapURLProtocolSlot233: NetTapURLProtocol {}
final class NetTapURLProtocolSlot234: NetTapURLProtocol {}
final class NetTapURLProtocolSlot235: NetTapURLProtocol {}
final class NetTapURLProtocolSlot236: NetTapURLProtocol {}
final class NetTapURLProtocolSlot237: NetTapURLProtocol {}
final class NetTapURLProtocolSlot238: NetTapURLProtocol {}
final class NetTapURLProtocolSlot239: NetTapURLProtocol {}
final class NetTapURLProtocolSlot240: NetTapURLProtocol {}
final class NetTapURLProtocolSlot241: NetTapURLProtocol {}
final class NetTapURLProtocolSlot242: NetTapURLProtocol {}
final class NetTapURLProtocolSlot243: NetTapURLProtocol {}
final class NetTapURLProtocolSlot244: NetTapURLProtocol {}
final class NetTapURLProtocolSlot245: NetTapURLProtocol {}
final class NetTapURLProtocolSlot246: NetTapURLProtocol {}
final class NetTapURLProtocolSlot247: NetTapURLProtocol {}
final class NetTapURLProtocolSlot248: NetTapURLProtocol {}
final class NetTapURLProtocolSlot249: NetTapURLProtocol {}
final class NetTapURLProtocolSlot250: NetTapURLProtocol {}
final class NetTapURLProtocolSlot251: NetTapURLProtocol {}
final class NetTapURLProtocolSlot252: NetTapURLProtocol {}
final class NetTapURLProtocolSlot253: NetTapURLProtocol {}
final class NetTapURLProtocolSlot254: NetTapURLProtocol {}
final class NetTapURLProtocolSlot255: NetTapURLProtocol {}
