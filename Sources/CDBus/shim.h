#include <dbus/dbus.h>

/* libdbus's type codes and message types are macros with casts, which Swift does not import: the same values
   as constants. */
static const int shelf_dbus_type_string = DBUS_TYPE_STRING;
static const int shelf_dbus_type_uint32 = DBUS_TYPE_UINT32;
static const int shelf_dbus_type_int32 = DBUS_TYPE_INT32;
static const int shelf_dbus_type_array = DBUS_TYPE_ARRAY;
static const int shelf_dbus_type_variant = DBUS_TYPE_VARIANT;
static const int shelf_dbus_type_dict_entry = DBUS_TYPE_DICT_ENTRY;
static const int shelf_dbus_type_byte = DBUS_TYPE_BYTE;
static const int shelf_dbus_type_invalid = DBUS_TYPE_INVALID;
static const int shelf_dbus_message_method_call = DBUS_MESSAGE_TYPE_METHOD_CALL;
static const int shelf_dbus_message_method_return = DBUS_MESSAGE_TYPE_METHOD_RETURN;
static const int shelf_dbus_message_error = DBUS_MESSAGE_TYPE_ERROR;
static const int shelf_dbus_message_signal = DBUS_MESSAGE_TYPE_SIGNAL;
