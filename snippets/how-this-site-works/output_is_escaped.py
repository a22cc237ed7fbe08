# Output is shown as text: printed markup is never interpreted by the page.
markup = "<script>document.title = 'injected'</script>"
print(markup)
assert "<script>" in markup
