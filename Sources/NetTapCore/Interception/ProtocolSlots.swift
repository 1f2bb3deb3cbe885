import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One `URLProtocol` class per interceptor other than `Interceptor.shared`, so the class the URL Loading System
/// instantiates says which interceptor serves the request — on every platform, without looking at the session.
///
/// The URL Loading System creates a protocol instance from the class listed in the session configuration's
/// `protocolClasses`; ``Interceptor/install(into:)`` of a private interceptor lists that interceptor's slot
/// class instead of ``NetTapURLProtocol`` itself. A slot is free again after ``Interceptor/uninstall()`` or
/// when its interceptor is gone (slots hold interceptors weakly, so an app that drops an interceptor does not
/// leak it). Where the configuration can be seen (Linux), its mark is asked first, so a session always finds the
/// interceptor that installed into it; the slot class is what finds it where the configuration cannot be seen
/// (Apple platforms). When all 64 slots are taken, the configuration gets the base class.
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
    ]

    private struct Owner {
        weak var interceptor: Interceptor?
    }

    private static let owners = Locked<[Owner]>(Array(repeating: Owner(), count: classes.count))

    /// The slot class of `interceptor`, taking a free slot on first use; `nil` when every slot is taken.
    static func slotClass(for interceptor: Interceptor) -> NetTapURLProtocol.Type? {
        let index = owners.withLock { owners -> Int? in
            if let existing = owners.firstIndex(where: { $0.interceptor === interceptor }) { return existing }
            guard let free = owners.firstIndex(where: { $0.interceptor == nil }) else { return nil }
            owners[free].interceptor = interceptor
            return free
        }
        return index.map { classes[$0] }
    }

    /// Frees the slot of `interceptor`, if it has one.
    static func release(_ interceptor: Interceptor) {
        owners.withLock { owners in
            if let index = owners.firstIndex(where: { $0.interceptor === interceptor }) {
                owners[index].interceptor = nil
            }
        }
    }

    /// The interceptor owning a slot class; `nil` for the base class and for a freed slot.
    static func interceptor(for type: AnyClass) -> Interceptor? {
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
