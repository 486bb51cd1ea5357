import Foundation
import HTTPServer
import Push

/// The push token registry, as a host service's token endpoints: what the app's token streams post to
/// (`pushToStartTokenUpdates`, `pushTokenUpdates`, `WidgetPushHandler.pushTokenDidChange`), and what the planner and
/// the sender address pushes with.
///
/// - `PUT /v1/push/tokens/push-to-start/{device}/{attributesType}`, `PUT /v1/push/tokens/activities/{activityId}`,
///   `PUT /v1/push/tokens/widgets/{device}` ``V1/TokenRegistrationRequest`` → ``V1/TokenRegistrationResult``
///   (`created`, `rotated` with the previous token, or `unchanged`: registering is idempotent); 409
///   `token_invalidated` / `token_registered_elsewhere`, 422 `invalid_identifier`, 400 `invalid_field` (not hex)
/// - `GET` on the same paths → ``V1/TokenSlot``: the current token and the slot's history
/// - `GET /v1/push/tokens?device=` → ``V1/PushTokenList``: the device's current tokens
/// - `GET /v1/push/registrations/{token}` → ``V1/PushToken``; `POST …/invalidate` ``V1/TokenInvalidationRequest``
///   → the token, never used again; 404 `unknown_push_token`
/// - `PUT /v1/push/channels/{channelId}` ``V1/ChannelRegistrationRequest`` → ``V1/Channel`` (201 when new, 200 when
///   registered already); `GET /v1/push/channels?closed=true|false`; `GET /v1/push/channels/{channelId}`;
///   `POST …/close` ``V1/ChannelCloseRequest``; 409 `channel_closed` / `channel_type_mismatch`, 404 `unknown_channel`
enum PushTokensResource: APIResource {
    static func register(in router: inout APIRouter, context: APIContext) {
        let registry = context.push.tokens

        func slotRoutes(_ template: String, slot: @escaping @Sendable (PathParameters) throws -> PushTokenSlot) {
            router.put(template) { request, parameters in
                let body = try request.decode(V1.TokenRegistrationRequest.self)
                let slot = try slot(parameters)
                let token = try body.tokenBytes()
                return try mappingPushTokenErrors {
                    try body.checkIdentifiers()
                    let outcome = try registry.register(token, in: slot, device: body.device,
                                                        attributesType: body.attributesType,
                                                        widgetKinds: body.kinds ?? [])
                    guard let record = try registry.lookup(token) else {
                        throw APIError(.internal, status: .internalServerError, message: "a registered token vanished")
                    }
                    return .json(V1.TokenRegistrationResult(outcome, record))
                }
            }
            router.get(template) { _, parameters in
                let slot = try slot(parameters)
                return .json(V1.TokenSlot(try mappingPushTokenErrors { try registry.history(slot) }))
            }
        }

        slotRoutes("/v1/push/tokens/push-to-start/{device}/{attributesType}") { parameters in
            .pushToStart(device: try parameters.require("device"), attributesType: try parameters.require("attributesType"))
        }
        slotRoutes("/v1/push/tokens/activities/{activityId}") { parameters in
            .activity(id: try parameters.require("activityId"))
        }
        slotRoutes("/v1/push/tokens/widgets/{device}") { parameters in
            .widgets(device: try parameters.require("device"))
        }

        registerChannels(in: &router, channels: context.push.channels)

        router.get("/v1/push/tokens") { request, _ in
            guard let device = request.queryItems.first(where: { $0.name == "device" })?.value, !device.isEmpty else {
                throw APIError.invalidQuery("device", "name the device whose tokens to list")
            }
            // Checked as a registration checks it, so a device no registration could name is refused, not listed empty.
            return .json(V1.PushTokenList(try mappingPushTokenErrors {
                try PushTokenRegistry.check("device", device)
                return try registry.tokens(device: device)
            }))
        }

        router.get("/v1/push/registrations/{token}") { _, parameters in
            let token = try Self.token(parameters)
            guard let record = try registry.lookup(token) else {
                throw APIError(PushTokenError.unknownToken(PushTokenText.hex(token)))
            }
            return .json(V1.PushToken(record))
        }

        router.post("/v1/push/registrations/{token}/invalidate") { request, parameters in
            let token = try Self.token(parameters)
            let body = try request.decode(V1.TokenInvalidationRequest.self)
            return try mappingPushTokenErrors {
                try registry.invalidate(token, reason: body.reason)
                guard let record = try registry.lookup(token) else { throw PushTokenError.unknownToken(PushTokenText.hex(token)) }
                return .json(V1.PushToken(record))
            }
        }
    }

    /// The broadcast channel routes.
    private static func registerChannels(in router: inout APIRouter, channels: PushChannelRegistry) {
        router.put("/v1/push/channels/{channelId}") { request, parameters in
            let id = try parameters.require("channelId")
            let body = try request.decode(V1.ChannelRegistrationRequest.self)
            return try mappingPushTokenErrors {
                let created = try channels.register(id, attributesType: body.attributesType)
                guard let channel = try channels.channel(id) else { throw PushChannelError.unknown(id) }
                return .json(V1.Channel(channel), status: created ? .created : .ok)
            }
        }
        router.get("/v1/push/channels") { request, _ in
            let closed = try APIQuery.bool("closed", in: request) ?? false
            return .json(V1.ChannelList(try channels.channels(includingClosed: closed)))
        }
        router.get("/v1/push/channels/{channelId}") { _, parameters in
            let id = try parameters.require("channelId")
            return try mappingPushTokenErrors {
                guard let channel = try channels.channel(id) else { throw PushChannelError.unknown(id) }
                return .json(V1.Channel(channel))
            }
        }
        router.post("/v1/push/channels/{channelId}/close") { request, parameters in
            let id = try parameters.require("channelId")
            let body = try request.decode(V1.ChannelCloseRequest.self)
            return try mappingPushTokenErrors {
                try channels.close(id, reason: body.reason)
                guard let channel = try channels.channel(id) else { throw PushChannelError.unknown(id) }
                return .json(V1.Channel(channel))
            }
        }
    }

    /// The `{token}` path parameter's bytes; 404 `unknown_push_token` when it is not hex (no token has that name).
    private static func token(_ parameters: PathParameters) throws -> Data {
        let text = try parameters.require("token")
        guard let token = PushTokenText.token(text) else { throw APIError(PushTokenError.unknownToken(text)) }
        return token
    }
}
