// DeepLinks: placeholder until its issue lands.
import CPCRE2
