"""TLS for the local APNs: a throwaway certificate authority and a server certificate for localhost and 127.0.0.1.

The client under test trusts the CA through its CA file (`ca.pem` in the state directory), as it would trust
Apple's; nothing here is ever valid outside the test run that made it.
"""

import datetime
import ipaddress
import os
import ssl

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


def _name(common_name):
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)])


def _validity(builder):
    now = datetime.datetime.now(datetime.timezone.utc)
    return builder.not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))


def _certificate_authority():
    key = ec.generate_private_key(ec.SECP256R1())
    builder = _validity(x509.CertificateBuilder()
                        .subject_name(_name("WidgetHost local APNs test CA"))
                        .issuer_name(_name("WidgetHost local APNs test CA"))
                        .public_key(key.public_key())
                        .serial_number(x509.random_serial_number()))
    builder = (builder
               .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
               .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                            data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                            crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
               .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False))
    return key, builder.sign(key, hashes.SHA256())


def _server_certificate(ca_key, ca_certificate):
    key = ec.generate_private_key(ec.SECP256R1())
    san = x509.SubjectAlternativeName([x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))])
    builder = _validity(x509.CertificateBuilder()
                        .subject_name(_name("localhost"))
                        .issuer_name(ca_certificate.subject)
                        .public_key(key.public_key())
                        .serial_number(x509.random_serial_number()))
    builder = (builder
               .add_extension(san, critical=False)
               .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
               .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
               .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False))
    return key, builder.sign(ca_key, hashes.SHA256())


def _write(path, data):
    with open(path, "wb") as file:
        file.write(data)
    return path


def server_context(state_dir):
    """Makes the CA and the server certificate in `state_dir` and returns (an h2-only server SSLContext, ca.pem)."""
    ca_key, ca_certificate = _certificate_authority()
    key, certificate = _server_certificate(ca_key, ca_certificate)
    pem = serialization.Encoding.PEM
    ca_file = _write(os.path.join(state_dir, "ca.pem"), ca_certificate.public_bytes(pem))
    chain = _write(os.path.join(state_dir, "server.pem"),
                   certificate.public_bytes(pem) + ca_certificate.public_bytes(pem))
    key_file = _write(os.path.join(state_dir, "server.key"),
                      key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(chain, key_file)
    context.set_alpn_protocols(["h2"])
    return context, ca_file
