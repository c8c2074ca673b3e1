<!-- include start from constraint/alpha-numeric-hyphen-underscore-dot.xml.i -->
<regex>[-_a-zA-Z0-9][\w\-\.\+]*</regex>
<!-- include end -->
