package import AlmanacBytes

/// What a streamed document tells as it is read: elements opening and closing, and text.
/// Names and text are lent for the length of the call.
package protocol XMLStreamHandler: AnyObject {
    func start(_ name: ByteView, _ attributes: XMLStreamAttributes)
    func end(_ name: ByteView)
    func text(_ bytes: ByteView)
}

/// An element's attributes as the stream lends them: values by local name, entities resolved,
/// valid only inside the `start` call that lends them.
package typealias XMLStreamAttributes = LentPairs
