"""No form or API operation of the service takes a file (settings: FILE_UPLOAD_HANDLERS).

Django caps a request's form fields (DATA_UPLOAD_MAX_MEMORY_SIZE) but not its files: a
multipart body's file part is streamed to a temporary file on disk whatever its size, to
any page or API operation that reads a form, the anonymous ones included, before the view
refuses the field. So a file part is refused as it starts, in the form of a body too
large (Django's 400, in the API's error shape under /api/: config.api.bad_request), and
none is written anywhere.
"""

from django.core.exceptions import RequestDataTooBig
from django.core.files.uploadhandler import FileUploadHandler


class NoFiles(FileUploadHandler):
    """Refuses every file part of a multipart body before a byte of it is kept."""

    def new_file(self, field_name, *args, **kwargs):
        raise RequestDataTooBig(f"This service takes no files (the field {field_name!r} held one).")

    def receive_data_chunk(self, raw_data, start):  # never reached: new_file refuses
        return None

    def file_complete(self, file_size):
        return None
