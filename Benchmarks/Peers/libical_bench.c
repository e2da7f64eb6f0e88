/* libical on the benchmark workloads (see compare.py).
 *
 *   libical_bench parse FILE               icalparser_parse_string on the whole file
 *   libical_bench expand FILE FROM UNTIL   parse, then icalcomponent_foreach_recurrence on every
 *                                          VEVENT/VTODO in [FROM, UNTIL) (YYYYMMDDTHHMMSSZ)
 */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>

static char *slurp(const char *path) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(2); }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (fread(text, 1, (size_t)size, file) != (size_t)size) { perror(path); exit(2); }
    text[size] = 0;
    fclose(file);
    return text;
}

static long occurrences = 0;
static void count(icalcomponent *c, struct icaltime_span *s, void *d) { (void)c; (void)s; (void)d; occurrences++; }

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    char *text = slurp(argv[2]);
    icalcomponent *calendar = icalparser_parse_string(text);
    if (!calendar) return 1;
    long items = 0;
    for (icalcomponent *c = icalcomponent_get_first_component(calendar, ICAL_ANY_COMPONENT); c;
         c = icalcomponent_get_next_component(calendar, ICAL_ANY_COMPONENT)) {
        icalcomponent_kind kind = icalcomponent_isa(c);
        if (kind != ICAL_VEVENT_COMPONENT && kind != ICAL_VTODO_COMPONENT) continue;
        items++;
        if (argc == 5) {
            struct icaltimetype from = icaltime_from_string(argv[3]), until = icaltime_from_string(argv[4]);
            if (icalcomponent_get_first_property(c, ICAL_DTSTART_PROPERTY))
                icalcomponent_foreach_recurrence(c, from, until, count, NULL);
        }
    }
    if (argc == 5) printf("occurrences %ld\n", occurrences); else printf("items %ld\n", items);
    return 0;
}
