"""Makes the DKIM test vectors with dkimpy (an independent RFC 6376 implementation):
python3 make_vectors.py (needs `pip install dkimpy cryptography`). Regenerating changes the key."""
import base64
import dkim
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
private_pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption())
public_der = key.public_key().public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
open("selector1._domainkey.shop.example.txt", "w").write("v=DKIM1; k=rsa; p=" + base64.b64encode(public_der).decode() + "\n")

message = (
    b"From: \"Shop\"  <orders@shop.example>\r\n"
    b"To: someone@privaterelay.appleid.com\r\n"
    b"Subject:   Your   order\r\n"
    b"Date: Wed, 25 Nov 2026 06:00:00 +0000\r\n"
    b"Message-ID: <order-1@shop.example>\r\n"
    b"\r\n"
    b"Thank you  for your order.\r\n"
    b"\r\n"
    b"Your juice is on its way.\r\n"
    b"\r\n"
    b"\r\n"
)
for header, body in [(b"relaxed", b"simple"), (b"simple", b"simple"), (b"relaxed", b"relaxed"), (b"simple", b"relaxed")]:
    signature = dkim.sign(
        message, b"selector1", b"shop.example", private_pem, canonicalize=(header, body),
        include_headers=[b"from", b"to", b"subject", b"date", b"message-id"])
    open("signed-%s-%s.eml" % (header.decode(), body.decode()), "wb").write(signature + message)
