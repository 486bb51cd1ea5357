#ifndef WIDGETHOST_COPENSSL_SHIM_H
#define WIDGETHOST_COPENSSL_SHIM_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

/* OSSL_PKEY_PARAM_GROUP_NAME is a string macro; spelled once here so Swift does not hard-code it. */
static inline const char *copenssl_group_parameter(void) { return OSSL_PKEY_PARAM_GROUP_NAME; }

/* EVP_PKEY_EC is a macro over a NID; the key type APNs keys must have. */
static inline int copenssl_key_type_ec(void) { return EVP_PKEY_EC; }

#endif
