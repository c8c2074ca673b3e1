<!-- include start from generic-description.xml.i -->
<leafNode name="description">
  <properties>
    <help>Description</help>
    <valueHelp>
      <format>txt</format>
      <description>Description</description>
    </valueHelp>
    <constraint>
      <regex>.{0,255}</regex>
    </constraint>
    <constraintErrorMessage>Description too long (limit 255 characters)</constraintErrorMessage>
  </properties>
</leafNode>
<!-- include end -->
