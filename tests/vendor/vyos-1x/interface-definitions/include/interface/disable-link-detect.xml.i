<!-- include start from interface/disable-link-detect.xml.i -->
<leafNode name="disable-link-detect">
  <properties>
    <help>Ignore link state changes</help>
    <valueless/>
  </properties>
</leafNode>
<!-- include end -->
